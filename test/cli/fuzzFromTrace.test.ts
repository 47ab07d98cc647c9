/**
 * Fuzzing `faultline from-trace` with bad input, in process (./inProcess.ts, the CLI's compiled entry):
 * a missing file, text that is not JSON, JSON that is not OTLP (a field of a span broken at a drawn
 * path), traces without GenAI spans, and a --trace-id the file does not hold. Every case is refused
 * with exit 2, naming the file (or the flag), the path in it where there is one and what was
 * expected, without a stack trace, and writes nothing.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { otlpJson, retriedWriteTrace } from '../../src/scenario/fromTrace/otlpFixture.testkit.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('fuzz-from-trace');
});
afterAll(async () => {
  await dir.cleanup();
});

interface Case {
  readonly text: string | undefined;
  readonly args?: readonly string[];
  /** What the refusal says, beyond the file's name. */
  readonly says: RegExp;
}

const hex = fc.stringMatching(/^[0-9a-f]{32}$/);
const SPAN_FIELDS = ['traceId', 'spanId', 'name', 'startTimeUnixNano', 'endTimeUnixNano', 'attributes'] as const;
const spanPath = /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[\d+\]\./;

const notJson: fc.Arbitrary<Case> = fc
  .oneof(
    fc.constant('{"resourceSpans": ['),
    fc.string({ minLength: 1, maxLength: 20 }).map((s) => `{${s}`),
  )
  .map((text) => ({ text, says: /not JSON \(.*\); expected OTLP\/JSON traces/ }));
const notOtlp: fc.Arbitrary<Case> = fc.oneof(
  fc
    .oneof(fc.integer(), fc.string(), fc.constant(null), fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer()))
    .map((value) => ({
      text: JSON.stringify(value),
      says: /not OTLP\/JSON traces:\n {2}- (\(root\)|resourceSpans): expected (an object|an array)/,
    })),
  fc
    .tuple(
      fc.nat({ max: retriedWriteTrace().length - 1 }),
      fc.constantFrom(...SPAN_FIELDS),
      fc.oneof(fc.constant(null), fc.boolean(), fc.constant([1])),
    )
    .map(([i, field, broken]) => {
      const body = otlpJson(retriedWriteTrace()) as { resourceSpans: { scopeSpans: { spans: object[] }[] }[] };
      const spans = body.resourceSpans[0]!.scopeSpans[0]!.spans;
      spans[i] = { ...spans[i], [field]: broken };
      return { text: JSON.stringify(body), says: new RegExp(`${spanPath.source}${field}: `) };
    }),
);
const noGenAi: fc.Arbitrary<Case> = fc
  .array(fc.stringMatching(/^(GET|POST) \/[a-z]{1,8}$/), { minLength: 1, maxLength: 4 })
  .map((names) => ({
    text: JSON.stringify(otlpJson(names.map((name, i) => ({ id: `s${i}`, name, startMs: i, endMs: i + 1 })))),
    says: /has no GenAI spans; expected spans with gen_ai\.operation\.name chat or execute_tool/,
  }));
const badTraceId: fc.Arbitrary<Case> = hex
  .filter((id) => id !== '4bf92f3577b34da6a3ce929d0e0e4736')
  .map((id) => ({
    text: JSON.stringify(otlpJson(retriedWriteTrace())),
    args: ['--trace-id', id],
    says: new RegExp(`^error: --trace-id ${id}: no such trace in .*; expected one of:\\n {2}4bf92f35`),
  }));
const missing: fc.Arbitrary<Case> = fc.constant({ text: undefined, says: /cannot read the trace file \(ENOENT\)/ });

describe('from-trace refuses bad input with exit 2, naming the file, the path and what was expected', () => {
  it('every drawn case of each class', async () => {
    const cases = fc.sample(fc.oneof(notJson, notOtlp, noGenAi, badTraceId, missing), { numRuns: 24, seed: 46 });
    // Every class drawn at least once, whatever the seed gives.
    const all = [
      ...cases,
      ...[notJson, notOtlp, noGenAi, badTraceId, missing].map((a) => fc.sample(a, { numRuns: 1, seed: 7 })[0]!),
    ];
    for (const [i, c] of all.entries()) {
      const file = `case-${i}.json`;
      if (c.text !== undefined) await writeFile(join(dir.path, file), c.text);
      const before = await readdir(dir.path);
      const r = await inProcess(['from-trace', file, ...(c.args ?? []), '--out', `out-${i}.yaml`], { cwd: dir.path });
      const shown = `case ${i}: ${c.text?.slice(0, 200)}\n${r.stderr}`;
      expect(r.code, shown).toBe(2);
      expect(r.stderr, shown).toContain(c.args ? '--trace-id' : file);
      expect(r.stderr, shown).toMatch(c.says);
      expect(r.stderr, shown).not.toMatch(/^\s+at /m);
      expect(await readdir(dir.path), shown).toEqual(before);
    }
  });
});
