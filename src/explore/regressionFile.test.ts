import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderRegression } from './regressionFile.js';

/**
 * R13 for regression files, as a property: a secret the scenario declares, put in any field of
 * it (its title, task, a goal, a key, a description), is nowhere in the file explore writes.
 */

const SECRET = 'sk-live-0123456789abcdef';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'regression-secrets-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The fields of a finding renderRegression reads, for a scenario named `name` that declares SECRET. */
const finding = (name: string) =>
  ({
    scenario: { name, secrets: [SECRET], agent: { kind: 'scripted' } },
    config: { name: 'rulebook' },
    seed: 1,
    runs: 10,
    failure: 'duplicates/R21',
    plan: [{ match: {}, fault: { kind: 'duplicate', copies: 2 } }],
    fired: [{ rule: 0, label: 'duplicate', firings: 1 }],
    regression: {
      name: `${name}-regression-1`,
      faults: [{ match: {}, fault: { kind: 'duplicate', copies: 2 } }],
      checks: ['duplicates'],
    },
    trial: { failed: ['duplicates'] },
    shrinks: 0,
    path: '0',
    foundAt: 1,
  }) as unknown as Parameters<typeof renderRegression>[0];

const base = (): Record<string, unknown> => ({
  name: 'secret-order',
  title: 'An order',
  agent: {
    kind: 'scripted',
    task: 'Create order ref-1',
    plan: {
      steps: [
        { tool: 'create_order', input: { clientReference: 'ref-1', item: 'lamp', quantity: 1, amountCents: 4500 } },
      ],
    },
  },
  goal: { effects: { 'order.created': 1 } },
  secrets: [SECRET],
});

/** Where the secret goes: a field's text, as a whole or inside a sentence, or a key. */
const placements: ((s: Record<string, unknown>, text: string) => void)[] = [
  (s, text) => (s['title'] = text),
  (s, text) => ((s['agent'] as Record<string, unknown>)['task'] = text),
  (s, text) => (s['description'] = text),
  (s, text) => (s['goal'] = { ...(s['goal'] as object), outcome: [text] }),
  (s) => (s['world'] = { orders: { [SECRET]: 1 } }),
];

describe('renderRegression keeps declared secrets out of the file', () => {
  it('wherever the scenario held one', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(
          placements.map((_, i) => i),
          { minLength: 1 },
        ),
        fc.constantFrom('', 'Pay with ', 'key: '),
        fc.constantFrom('', '.', ' now'),
        async (where, before, after) => {
          const raw = base();
          for (const i of where) placements[i]!(raw, `${before}${SECRET}${after}`);
          const source = join(dir, `s${n++}.yaml`);
          await writeFile(source, JSON.stringify(raw));
          const written = await renderRegression(finding('secret-order'), {
            scenario: source,
            config: 'rulebook',
            outDir: dir,
            source,
            runs: 10,
          });
          expect(written.text).not.toContain(SECRET);
          expect(written.text).toContain('[REDACTED]');
        },
      ),
      { numRuns: 25, seed: 43 },
    );
  });
});
