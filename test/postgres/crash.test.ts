import { describe, expect, it } from 'vitest';
import { rulebookDefault } from '../../src/runtime/config.js';
import { defineScenario } from '../../src/scenario/scenario.js';
import { runTrial, type TrialResult } from '../../src/runner/trial.js';
import { postgresBackend } from '../../src/runner/postgresBackend.js';
import { skipReason, useTestDatabase } from './postgres.js';

/**
 * R22, R25: the service commits the order, and the agent process dies before the answer is
 * recorded. The services do not honour idempotency keys, so only the operation records and
 * reconciliation by business id stand between a restart and a second order.
 */
const scenario = defineScenario({
  name: 'crash-after-commit',
  title: 'The agent process dies after the order committed, before the answer was recorded',
  rules: ['R22', 'R25'],
  world: { orders: { idempotency: false }, payments: { idempotency: false } },
  services: ['orders', 'payments'],
  agent: {
    kind: 'scripted',
    task: 'Create order ref-900 for a bike and pay for it.',
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
  goal: {
    effects: { 'order.created': 1, 'payment.charged': 1 },
    state: { orders: { 'ord-1': { clientReference: 'ref-900', status: 'paid' } } },
  },
});

const crash = { afterEffectOf: 'create_order' };
/** The trial with its agent process killed after the order's commit, on this backend (default: in memory). */
const crashed = (backend?: ReturnType<typeof postgresBackend>): Promise<TrialResult> =>
  runTrial({ scenario, config: rulebookDefault, runSeed: 1, trialIndex: 0, ...(backend && { backend }), crash });
const verdict = (r: TrialResult, name: string) => r.checks.find((c) => c.name === name)?.verdict;
const tools = (r: TrialResult, caller: string) =>
  r.history.flatMap((e) => (e.type === 'tool_call' && e.caller === caller ? [e.tool] : []));

describe.skipIf(skipReason !== undefined)('crash and restart (R22, R25)', () => {
  const database = useTestDatabase(10);

  it('resumes from the Postgres operation records, reconciles, and finishes without a duplicate', async () => {
    const db = database();
    const result = await crashed(postgresBackend(db.pool));
    expect(result.checks.filter((c) => c.verdict.valid !== true)).toEqual([]);
    expect(result.status).toBe('passed');
    expect(result.snapshot.ledger.map((e) => [e.effect, e.key])).toEqual([
      ['order.created', 'ref-900'],
      ['payment.charged', 'pay-900'],
    ]);
    // The first process sent create_order and died; the second reconciled it by status query
    // and sent only the charge: its replayed create_order was answered from the record.
    expect(tools(result, 'process-1')).toEqual(['create_order']);
    expect(tools(result, 'process-2')).toEqual(['query_operation_status', 'create_order', 'charge_payment']);
    const deliveries = result.history.filter((e) => e.type === 'delivery').map((e) => e.tool);
    expect(deliveries).toEqual(['create_order', 'create_order', 'charge_payment']);
    expect(result.history.filter((e) => e.type === 'attempt').map((e) => [e.tool, e.purpose])).toEqual([
      ['create_order', 'call'],
      ['create_order', 'status'],
      ['charge_payment', 'call'],
    ]);
    expect(result.history.find((e) => e.type === 'reconcile')).toMatchObject({ op: 'op-1', found: 'succeeded' });
    const records = await db.pool.query(
      'SELECT op, tool, state FROM faultline_operations WHERE namespace LIKE $1 ORDER BY seq',
      [`faultline:crash-after-commit/%`],
    );
    expect(records.rows).toEqual([
      { op: 'op-1', tool: 'create_order', state: 'succeeded' },
      { op: 'op-2', tool: 'charge_payment', state: 'succeeded' },
    ]);
  });

  it('fails with a duplicate order as evidence when the records were kept only in memory', async () => {
    const db = database();
    const result = await crashed(postgresBackend(db.pool, { records: 'memory', prefix: 'mem-records' }));
    expect(result.status).toBe('failed');
    expect(verdict(result, 'duplicates')).toMatchObject({
      valid: false,
      evidence: [{ subject: 'orders:ref-900', effect: 'order.created' }],
    });
    expect(verdict(result, 'goal-state')?.valid).toBe(false);
    expect(result.snapshot.ledger.map((e) => [e.effect, e.key, (e.data as { orderId?: string }).orderId])).toEqual([
      ['order.created', 'ref-900', 'ord-1'],
      ['order.created', 'ref-900', 'ord-2'],
      // The charge went to the second order; ord-1 is left unpaid.
      ['payment.charged', 'pay-900', 'ord-2'],
    ]);
    expect(tools(result, 'process-2')).toEqual(['create_order', 'charge_payment']);
  });

  it('judges the in-memory backend the same way: records in memory die with the process', async () => {
    const db = database();
    const memory = await crashed();
    expect(memory.status).toBe('failed');
    expect(verdict(memory, 'duplicates')?.valid).toBe(false);
    // With durable records and an in-memory world it passes: it is the records that matter.
    const durable = await crashed(postgresBackend(db.pool, { world: 'memory', prefix: 'mem-world' }));
    expect(durable.status).toBe('passed');
  });

  it('changes nothing without a crash', async () => {
    const db = database();
    for (const backend of [undefined, postgresBackend(db.pool, { prefix: 'no-crash' })]) {
      const result = await runTrial({
        scenario,
        config: rulebookDefault,
        runSeed: 1,
        trialIndex: 0,
        ...(backend && { backend }),
      });
      expect(result.status).toBe('passed');
      expect(result.history.some((e) => e.type === 'tool_call' && e.caller !== undefined)).toBe(false);
    }
  });
});
