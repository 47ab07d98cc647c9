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

it('several behaviours: refused where a command takes one, and a behaviour named twice is refused everywhere (fuzzed)', async () => {
  const names = ['careful', 'retries-blindly', 'new-key-per-retry', 'ignores-retry-after', 'unknown-as-failure'];
  const values = fc.uniqueArray(fc.constantFrom(...names), { minLength: 2, maxLength: 3 }).chain((picked) =>
    fc.record({
      picked: fc.constant(picked),
      // As one comma list or the flag repeated: the same behaviours.
      repeated: fc.boolean(),
      command: fc.constantFrom(
        ['replay', 'read-timeout-retry', '--seed', '1', '--trial', '0'],
        ['explore', 'read-timeout-retry', '--runs', '1'],
        ['sweep', 'read-timeout-retry', '--fault', 'timeout', '--lambda', '0'],
      ),
    }),
  );
  await fc.assert(
    fc.asyncProperty(values, async ({ picked, repeated, command }) => {
      const flags = repeated ? picked.flatMap((b) => ['--behaviour', b]) : ['--behaviour', picked.join(',')];
      const one = await inProcess([...command, ...flags], { cwd: dir.path });
      expect(one.code).toBe(2);
      expect(one.stderr).toContain(`--behaviour was given ${picked.length} behaviours (${picked.join(', ')})`);
      const twice = await inProcess(
        ['compare', 'read-timeout-retry', '--behaviour', [...picked, picked[0]!].join(','), '--out', 'several'],
        { cwd: dir.path },
      );
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain(`${picked[0]} is named twice`);
      expect(`${one.stderr}${twice.stderr}`).not.toMatch(/\n\s+at /);
    }),
    { numRuns: 8, seed: 43 },
  );
});
