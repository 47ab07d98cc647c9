import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES_DOC, rulesCited, rulesFooter } from './rulesLink.js';

const SRC = join(RULES_DOC, '..', '..', 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  );

describe('rulesCited', () => {
  it('lists each rule once, in rule order, and ignores look-alikes', () => {
    expect(rulesCited(['a new key per retry (R23); quota (R5)', 'again (R5, R23)', 'R100 and XR2 and R0'])).toEqual([
      'R5',
      'R23',
    ]);
    expect(rulesCited(['no rule here'])).toEqual([]);
  });
});

describe('rulesFooter', () => {
  it("points at the first rule's anchor, relative to the working folder when inside it", () => {
    const root = join(RULES_DOC, '..', '..');
    expect(rulesFooter(['(R23)', '(R5)'], root)).toBe('rules: R5 R23 (explained in docs/rules.md#r5)');
    expect(rulesFooter(['(R9)'], join(root, '..', 'elsewhere'))).toBe(`rules: R9 (explained in ${RULES_DOC}#r9)`);
    expect(rulesFooter(['nothing'], root)).toBeUndefined();
  });
});

describe('docs/rules.md', () => {
  const doc = readFileSync(RULES_DOC, 'utf8');
  const anchors = new Set(
    [...doc.matchAll(/<a id="(r\d+)"><\/a>\n### (R\d+):/g)]
      .filter((m) => m[1] === m[2]!.toLowerCase())
      .map((m) => m[1]),
  );

  it('explains R1 to R31, each under its own anchor', () => {
    expect([...anchors].sort()).toEqual(Array.from({ length: 31 }, (_, i) => `r${i + 1}`).sort());
  });

  it('explains every rule the sources cite', () => {
    const cited = rulesCited(sources(SRC).map((f) => readFileSync(f, 'utf8')));
    expect(cited.length).toBeGreaterThan(20);
    expect(cited.filter((r) => !anchors.has(r.toLowerCase()))).toEqual([]);
  });
});
