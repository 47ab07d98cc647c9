import { describe, expect, it } from 'vitest';
import { loadConfigs, loadScenarios } from '../../src/scenario/library.js';
import { runTrial, type TrialResult } from '../../src/runner/trial.js';
import { postgresBackend } from '../../src/runner/postgresBackend.js';
import { skipReason, useTestDatabase } from './postgres.js';

/** Every built-in scenario that runs on orders and payments alone. */
const SCENARIOS = [
  'order-partial-write-idempotent',
  'order-partial-write-no-idempotency',
  'duplicate-delivery-dedup',
  'concurrent-duplicate-409',
  'payment-quota-exceeded',
  'permission-denied-refund',
  'read-timeout-retry',
  'replayed-500-same-key',
];
const CONFIGS = ['rulebook', 'naive'];
const TRIALS = 2;

/** What a backend must not change: each checker's verdict, and the final state. */
const verdicts = (r: TrialResult) => ({
  trial: `${r.scenario}/${r.config}/${r.trialIndex}`,
  status: r.status,
  checks: r.checks.map((c) => [c.name, c.verdict.valid]),
});

describe.skipIf(skipReason !== undefined)('the same scenarios on the in-memory and the Postgres backends', () => {
  const database = useTestDatabase(10);

  it('give identical verdicts, final states and histories, trial by trial', async () => {
    const db = database();
    const scenarios = await loadScenarios(SCENARIOS);
    const configs = await loadConfigs(CONFIGS);
    const backend = postgresBackend(db.pool);
    const memory: TrialResult[] = [];
    const postgres: TrialResult[] = [];
    for (const scenario of scenarios) {
      for (const config of configs) {
        for (let trialIndex = 0; trialIndex < TRIALS; trialIndex++) {
          memory.push(await runTrial({ scenario, config, runSeed: 7, trialIndex }));
          postgres.push(await runTrial({ scenario, config, runSeed: 7, trialIndex, backend }));
        }
      }
    }
    expect(postgres.length).toBe(SCENARIOS.length * CONFIGS.length * TRIALS);
    expect(postgres.map(verdicts)).toEqual(memory.map(verdicts));
    expect(postgres.map((r) => r.snapshot)).toEqual(memory.map((r) => r.snapshot));
    expect(postgres.map((r) => r.history)).toEqual(memory.map((r) => r.history));
    // Not vacuous: both verdicts occur, and the naive configuration's duplicate is seen on both.
    expect(new Set(postgres.map((r) => r.status))).toEqual(new Set(['passed', 'failed']));
    const naiveNoKeys = postgres.find(
      (r) => r.scenario === 'order-partial-write-no-idempotency' && r.config === 'naive',
    );
    expect(naiveNoKeys?.checks.find((c) => c.name === 'duplicates')?.verdict.valid).toBe(false);
    expect(naiveNoKeys?.snapshot.ledger.filter((e) => e.effect === 'order.created')).toHaveLength(2);
  });

  it('reads the final state from the tables', async () => {
    const db = database();
    const [scenario] = await loadScenarios(['order-partial-write-idempotent']);
    const [config] = await loadConfigs(['rulebook']);
    const result = await runTrial({
      scenario: scenario!,
      config: config!,
      runSeed: 3,
      trialIndex: 0,
      backend: postgresBackend(db.pool, { prefix: 'tables' }),
    });
    expect(result.status).toBe('passed');
    const world = `tables:${scenario!.name}/${config!.name}/0/${result.seed}`;
    const orders = await db.pool.query(
      'SELECT order_id, client_reference, status FROM faultline_orders WHERE world = $1',
      [world],
    );
    expect(orders.rows).toEqual([{ order_id: 'ord-1', client_reference: 'ref-200', status: 'paid' }]);
    const effects = await db.pool.query(
      'SELECT seq, effect, key FROM faultline_effects WHERE world = $1 ORDER BY seq',
      [world],
    );
    expect(effects.rows).toEqual([
      { seq: 0, effect: 'order.created', key: 'ref-200' },
      { seq: 1, effect: 'payment.charged', key: 'pay-200' },
    ]);
    const ops = await db.pool.query(
      'SELECT op, tool, state FROM faultline_operations WHERE namespace = $1 ORDER BY seq',
      [world],
    );
    expect(ops.rows).toEqual([
      { op: 'op-1', tool: 'create_order', state: 'succeeded' },
      { op: 'op-2', tool: 'charge_payment', state: 'succeeded' },
    ]);
  });
});
