import { describe, expect, it } from 'vitest';
import { rulebookDefault } from '../runtime/config.js';
import { defineScenario } from '../scenario/scenario.js';
import { runTrial, runTrialSummary, summarise, type TrialOptions } from './trial.js';

const SECRET = 'PLANTED-s3cr3t-4f9c2e';
const order = {
  tool: 'create_order',
  input: { clientReference: SECRET, item: 'book', quantity: 1, amountCents: 1500 },
};

// A secret in the task, a tool's input and output, a fault's message and the final message; one trial passes, one fails.
const passing = defineScenario({
  name: 'summary-passing',
  secrets: [SECRET],
  agent: {
    kind: 'scripted',
    task: `Order with ${SECRET}`,
    plan: { finalMessage: `Done, used ${SECRET}`, steps: [order] },
  },
});
const failing = defineScenario({
  name: 'summary-failing',
  secrets: [SECRET],
  faults: [
    {
      match: { tool: 'create_order' },
      times: 1,
      fault: { kind: 'rejected', message: `card declined for account ${SECRET}` },
    },
  ],
  agent: { kind: 'scripted', task: `Order with ${SECRET}`, plan: { steps: [order] } },
});
// No declared secret: an undeclared credential shape in the history only.
const undeclared = defineScenario({
  name: 'summary-undeclared',
  agent: {
    kind: 'scripted',
    task: 'Order with token=hunter2abc',
    plan: { steps: [{ ...order, input: { ...order.input, clientReference: 'ref-1' } }] },
  },
});

describe('runTrialSummary', () => {
  it('is summarise(runTrial(…)) to the byte, history kept or dropped, and holds no secret either way', async () => {
    for (const scenario of [passing, failing, undeclared]) {
      const options: TrialOptions = { scenario, config: rulebookDefault, runSeed: 3, trialIndex: 0 };
      const full = await runTrial(options);
      for (const keep of [true, false]) {
        const summary = await runTrialSummary(options, () => keep);
        const expected = JSON.stringify(summarise(full, keep));
        expect(JSON.stringify(summary), `${scenario.name}, history ${keep ? 'kept' : 'dropped'}`).toBe(expected);
        expect(expected).not.toContain(SECRET);
        expect(expected).not.toContain('hunter2abc');
      }
    }
    expect((await runTrial({ scenario: failing, config: rulebookDefault, runSeed: 3, trialIndex: 0 })).status).toBe(
      'failed',
    );
  });

  it(
    "writes a trial's keys in one order: the record's, runSeed, refs, checks, stats, then the verdict's " +
      "(a result's JSON text is hashed and compared)",
    async () => {
      const record = [
        'scenario',
        'config',
        'trialIndex',
        'seed',
        'history',
        'snapshot',
        'end',
        'runSeed',
        'refs',
        'checks',
        'stats',
      ];
      const plain = defineScenario({
        name: 'summary-plain',
        agent: {
          kind: 'scripted',
          task: 'Order',
          plan: { steps: [{ ...order, input: { ...order.input, clientReference: 'ref-1' } }] },
        },
      });
      const passed = await runTrial({ scenario: plain, config: rulebookDefault, runSeed: 3, trialIndex: 0 });
      expect(passed.status).toBe('passed');
      expect(Object.keys(passed)).toEqual([...record, 'status']);
      const failed = await runTrial({ scenario: failing, config: rulebookDefault, runSeed: 3, trialIndex: 0 });
      expect(Object.keys(failed)).toEqual([...record, 'status', 'failed']);
      const summary = await runTrialSummary(
        { scenario: failing, config: rulebookDefault, runSeed: 3, trialIndex: 0 },
        () => false,
      );
      expect(Object.keys(summary)).toEqual([...record.filter((k) => k !== 'snapshot'), 'status', 'failed']);
    },
  );

  it("keeps the history by the trial's own status", async () => {
    const asked: string[] = [];
    const summary = await runTrialSummary(
      { scenario: failing, config: rulebookDefault, runSeed: 3, trialIndex: 0 },
      (status) => (asked.push(status), status === 'failed'),
    );
    expect(asked).toEqual(['failed']);
    expect(summary.history.length).toBeGreaterThan(0);
  });
});
