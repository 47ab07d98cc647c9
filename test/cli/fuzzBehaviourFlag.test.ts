/**
 * Bad values of `--behaviour` (issue 43), fuzzed in process through the CLI's entry: each is exit 2 before any trial,
 * one line naming the flag, never a stack trace; the same syntax as a scenario's `behaviour`, checked by its schema.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('fuzz-behaviour');
});
afterAll(() => dir.cleanup());

it('a bad value is exit 2 before any trial, naming the flag, what was given and the known names (fuzzed)', async () => {
  const bad = fc.oneof(
    fc.stringMatching(/^[a-z-]{0,12}$/).filter((s) => !['careful', 'retries-blindly'].includes(s)),
    fc.constantFrom(
      'careful=',
      '=0.5',
      'careful=-1',
      'careful=0',
      'careful=x,retries-blindly=1',
      'nope=1',
      'careful=1,careful=2',
    ),
  );
  await fc.assert(
    fc.asyncProperty(bad, async (value) => {
      const r = await inProcess(['run', 'read-timeout-retry', '--behaviour', value, '--out', 'e'], { cwd: dir.path });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: --behaviour /m);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }),
    { numRuns: 12, seed: 41 },
  );
});
