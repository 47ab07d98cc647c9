import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/index.js';
import { rulebookDefault } from '../runtime/config.js';
import { parseExecutionConfig } from '../runtime/executionConfig.js';
import { InMemoryOperationStore } from '../runtime/idempotency/InMemoryOperationStore.js';
import { memoryBackend, type TrialBackend } from './backend.js';
import { ProcessClock } from './crash.js';
import { defineScenario } from '../scenario/scenario.js';
import { runTrial } from './trial.js';

const scenario = defineScenario({
  name: 'crash-after-commit',
  world: { orders: { idempotency: false }, payments: { idempotency: false } },
  services: ['orders', 'payments'],
  agent: {
    kind: 'scripted',
    task: 'Create order ref-900 and pay for it.',
    plan: {
      steps: [
        {
          name: 'order',
          tool: 'create_order',
          input: { clientReference: 'ref-900', item: 'bike', quantity: 1, amountCents: 50_000 },
          subject: 'orders:ref-900',
        },
        {
          tool: 'charge_payment',
          input: { paymentReference: 'pay-900', orderId: '$order.orderId', amountCents: 50_000, currency: 'EUR' },
          subject: 'payments:pay-900',
        },
      ],
    },
  },
  goal: { effects: { 'order.created': 1, 'payment.charged': 1 } },
});

/** Records that survive the process: one store object shared by both processes of the trial. */
const sharedRecords: TrialBackend = {
  ...memoryBackend,
  name: 'memory+shared-records',
  durableStore: () => Promise.resolve(new InMemoryOperationStore()),
};

describe('ProcessClock', () => {
  it('keeps time with the trial but fires nothing once its process is dead', async () => {
    const clock = new VirtualClock(0);
    const process = new ProcessClock(clock);
    const fired: string[] = [];
    process.setTimer(10, () => fired.push('before'));
    process.setTimer(30, () => fired.push('after'));
    clock.setTimer(20, () => process.kill());
    expect(await clock.run(() => clock.sleep(50))).toMatchObject({ kind: 'settled', at: 50 });
    expect(fired).toEqual(['before']);
    expect(process.now()).toBe(50);
  });
});

/** The second process, with no records of the first, created the order again: duplicates says so. */
function expectOrderDuplicated(result: Awaited<ReturnType<typeof runTrial>>): void {
  expect(result.checks.find((c) => c.name === 'duplicates')?.verdict).toMatchObject({
    valid: false,
    evidence: [{ subject: 'orders:ref-900' }],
  });
  expect(result.history.flatMap((e) => (e.type === 'tool_call' ? [[e.caller, e.tool]] : []))).toEqual([
    ['process-1', 'create_order'],
    ['process-2', 'create_order'],
    ['process-2', 'charge_payment'],
  ]);
}

describe('runTrial with a crash', () => {
  it('duplicates the order when the records died with the first process', async () => {
    const result = await runTrial({
      scenario,
      config: rulebookDefault,
      runSeed: 1,
      trialIndex: 0,
      crash: { afterEffectOf: 'create_order' },
    });
    expect(result.status).toBe('failed');
    expectOrderDuplicated(result);
  });

  it('finishes without a duplicate when the records outlive the process', async () => {
    const result = await runTrial({
      scenario,
      config: rulebookDefault,
      runSeed: 1,
      trialIndex: 0,
      backend: sharedRecords,
      crash: { afterEffectOf: 'create_order' },
    });
    expect(result.checks.filter((c) => c.verdict.valid !== true)).toEqual([]);
    expect(result.snapshot.ledger.map((e) => e.effect)).toEqual(['order.created', 'payment.charged']);
  });

  it('runs as usual when the planned tool never commits', async () => {
    const result = await runTrial({
      scenario,
      config: rulebookDefault,
      runSeed: 1,
      trialIndex: 0,
      crash: { afterEffectOf: 'refund_payment' },
    });
    expect(result.status).toBe('passed');
    expect(
      result.history.filter((e) => e.type === 'tool_call').map((e) => (e.type === 'tool_call' ? e.caller : '')),
    ).toEqual(['process-1', 'process-1']);
  });

  it(
    'runs a library configuration too: its second process has no records to resume from, and the ' +
      'checkers say what that costs',
    async () => {
      const cockatiel = parseExecutionConfig({ kind: 'cockatiel', name: 'cockatiel', maxAttempts: 2 });
      // Even with a store that outlives the process: a library keeps no operation records to put in it.
      const result = await runTrial({
        scenario,
        config: cockatiel,
        runSeed: 1,
        trialIndex: 0,
        backend: sharedRecords,
        crash: { afterEffectOf: 'create_order' },
      });
      expect(result.end).toEqual({ kind: 'agent_ended', outcome: 'completed' });
      expect(result.status).toBe('failed');
      expectOrderDuplicated(result);
      // No resume: nothing asked the service about the lost order before sending it again.
      expect(result.history.filter((e) => e.type === 'attempt' && e.purpose !== 'call')).toEqual([]);
    },
  );
});
