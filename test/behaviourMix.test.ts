/** Behaviour mixtures: a scripted model that draws its behaviour per decision, through the public API. */
import { describe, expect, it } from 'vitest';
import { defineScenario, runMatrix, runTrial, type Scenario } from '../src/public/index.js';
import { RetryConfigSchema } from '../src/public/runtime.js';
import { ScriptedModel, type BehaviourSpec } from '../src/public/testing.js';

const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 };

// A runtime that neither retries nor reads hints hands every 429 to the model, and lets an early resend through.
const ignoresHints = RetryConfigSchema.parse({
  name: 'no-retry-no-hints',
  maxAttempts: 1,
  retryAfter: { mode: 'ignore' },
});

/** The first create_order answers 429 with Retry-After: 5: one decision per trial, wait or resend at once. */
const scenario = (behaviour: BehaviourSpec): Scenario =>
  defineScenario({
    name: 'order-rate-limited-mixed',
    faults: [{ match: { tool: 'create_order' }, fault: { kind: 'rate_limit', retryAfter: 5 }, times: 1 }],
    goal: { effects: { 'order.created': 1 } },
    agent: {
      kind: 'scripted',
      task: 'Create order ref-1',
      behaviour,
      plan: { steps: [{ name: 'order', tool: 'create_order', input: ORDER, subject: 'orders:ref-1' }] },
    },
  });

const MIX = { careful: 0.7, 'ignores-retry-after': 0.3 } as const;

describe('behaviour: { careful: 0.7, ignores-retry-after: 0.3 }', () => {
  it('draws per decision from the trial seed: the same seed gives the same history, byte for byte', async () => {
    const once = await runTrial({ scenario: scenario(MIX), config: ignoresHints, runSeed: 3, trialIndex: 5 });
    const again = await runTrial({ scenario: scenario(MIX), config: ignoresHints, runSeed: 3, trialIndex: 5 });
    expect(JSON.stringify(again.history)).toBe(JSON.stringify(once.history));
    // The file's key order changes no draw: weights are walked in the order of the behaviour list.
    const reordered = await runTrial({
      scenario: scenario({ 'ignores-retry-after': 0.3, careful: 0.7 }),
      config: ignoresHints,
      runSeed: 3,
      trialIndex: 5,
    });
    expect(JSON.stringify(reordered.history)).toBe(JSON.stringify(once.history));
  });

  it('makes pass^k strictly between 0 and 1 where the pure behaviours give 1 and 0', async () => {
    const run = (behaviour: BehaviourSpec) =>
      runMatrix({ scenarios: [scenario(behaviour)], configs: [ignoresHints], k: 24, seed: 1 });
    const [careful, naive, mixed] = await Promise.all([run('careful'), run('ignores-retry-after'), run(MIX)]);
    expect(careful.cells[0]!.metrics.passHat[0]).toBe(1);
    expect(naive.cells[0]!.metrics.passHat[0]).toBe(0);
    const passHat = mixed.cells[0]!.metrics.passHat;
    expect(passHat[0]).toBeGreaterThan(0);
    expect(passHat[0]).toBeLessThan(1);
    // pass^k falls with k: every one of k trials must draw no early resend.
    expect(passHat[3]).toBeLessThan(passHat[0]!);
    // The failures are the bad behaviour's, caught by the checker meant for it.
    const failed = new Set(mixed.cells[0]!.trials.flatMap((t) => (t.status === 'failed' ? t.failed : [])));
    expect([...failed]).toEqual(['retry-discipline']);
  });

  it('a ScriptedModel given a mixture without an rng says what it needs', () => {
    expect(() => new ScriptedModel({ steps: [{ tool: 'create_order', input: ORDER }] }, { behaviour: MIX })).toThrow(
      "behaviour mixture careful=0.7,ignores-retry-after=0.3: a mixture draws from the trial's rng; pass options.rng",
    );
  });
});
