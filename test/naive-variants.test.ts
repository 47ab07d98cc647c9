import { describe, expect, it } from 'vitest';
import type { Behaviour } from '../src/model/behaviours.js';
import type { EventOf, HistoryEvent, Verdict } from '../src/core/index.js';
import { formatTimeline } from '../src/report/timeline.js';
import { runMatrix } from '../src/runner/run.js';
import { defineScenario, type Scenario, type ScenarioInput } from '../src/scenario/scenario.js';
import { runTrial, type TrialResult, type TrialSummary } from '../src/runner/trial.js';
import { RetryConfigSchema, rulebookDefault, type RetryConfig } from '../src/runtime/config.js';

/**
 * Each naive behaviour of the scripted model (and each naive runtime configuration) is one
 * deliberate bug. For each: a scenario whose faults provoke it, the careful model (or the
 * rulebook runtime) passing that same scenario, and the checker meant for the bug catching
 * it with evidence that names the calls.
 */

const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 };
const ORDER_STEP = { name: 'order', tool: 'create_order', input: ORDER, subject: 'orders:ref-1' };

type Parts = Omit<ScenarioInput, 'name' | 'agent'>;

const orderScenario = (name: string, behaviour: Behaviour, parts: Parts): Scenario =>
  defineScenario({
    name,
    ...parts,
    agent: { kind: 'scripted', task: 'Create order ref-1', behaviour, plan: { steps: [ORDER_STEP] } },
  });

const run = (scenario: Scenario, config: RetryConfig = rulebookDefault): Promise<TrialResult> =>
  runTrial({ scenario, config, runSeed: 42, trialIndex: 0 });

/** The verdict of one checker; the timeline rides along in every assertion message. */
function verdictOf(trial: TrialResult, checker: string): Verdict {
  const found = trial.checks.find((c) => c.name === checker);
  if (!found) throw new Error(`checker ${checker} did not run:\n${formatTimeline(trial.history)}`);
  return found.verdict;
}

function failure(trial: TrialResult, checker: string): { message: string; evidence: readonly unknown[] } {
  const v = verdictOf(trial, checker);
  if (v.valid !== false)
    throw new Error(`expected ${checker} to fail, got ${JSON.stringify(v)}:\n${formatTimeline(trial.history)}`);
  return v;
}

function expectPassed(trial: TrialResult): void {
  const failed = trial.checks.filter((c) => c.verdict.valid !== true);
  expect(failed, formatTimeline(trial.history)).toEqual([]);
  expect(trial.status).toBe('passed');
}

const failedOf = (trial: TrialSummary): readonly string[] => (trial.status === 'failed' ? trial.failed : []);

const events = <K extends HistoryEvent['type']>(trial: TrialResult, type: K): EventOf<K>[] =>
  trial.history.filter((e): e is EventOf<K> => e.type === type);

const toolCalls = (trial: TrialResult): string[] => events(trial, 'tool_call').map((c) => `${c.call} ${c.tool}`);

const effectCount = (trial: TrialResult, effect: string): number =>
  trial.snapshot.ledger.filter((e) => e.effect === effect).length;

describe('retries-blindly: resends after errors retrying cannot fix', () => {
  const cases = [
    {
      fault: { kind: 'quota_exceeded' } as const,
      kind: 'quota_exceeded',
      why: 'waiting does not help an exhausted quota (R5)',
      rule: 'R5',
    },
    {
      fault: { kind: 'permission_denied', status: 403 } as const,
      kind: 'permission_denied',
      why: 'permanent errors are never retried (R7)',
      rule: 'R7',
    },
  ];
  const scenario = (behaviour: Behaviour, fault: (typeof cases)[number]['fault']): Scenario =>
    orderScenario('order-refused', behaviour, {
      faults: [{ match: { tool: 'create_order' }, fault }],
      goal: { effects: { 'order.created': 0 }, outcome: ['handoff'] },
    });

  it.each(cases)('the careful model hands $kind to a person after one call', async ({ fault }) => {
    const trial = await run(scenario('careful', fault));
    expectPassed(trial);
    expect(toolCalls(trial)).toEqual(['call-1 create_order']);
    expect(trial.end).toEqual({ kind: 'agent_ended', outcome: 'handoff' });
  });

  it.each(cases)(
    'retry-discipline catches the blind resends after $kind, naming each call',
    async ({ fault, kind, why, rule }) => {
      const trial = await run(scenario('retries-blindly', fault));
      expect(trial.status).toBe('failed');
      expect(failedOf(trial)).toContain('retry-discipline');
      expect(toolCalls(trial)).toEqual([
        'call-1 create_order',
        'call-2 create_order',
        'call-3 create_order',
        'call-4 create_order',
      ]);

      const { message, evidence } = failure(trial, 'retry-discipline');
      expect(message).toBe(
        [2, 3, 4]
          .map(
            (n) =>
              `create_order call-${n} attempt 1 (req-${n}) at t=0ms resent the same input after the ${kind} error of call-1 attempt 1 at t=0ms: ${why}`,
          )
          .join('; '),
      );
      expect(evidence).toHaveLength(3);
      expect(evidence[0]).toMatchObject({
        rule,
        attempt: { call: 'call-2', attempt: 1, request: 'req-2', tool: 'create_order' },
        after: { call: 'call-1', attempt: 1, kind },
      });
    },
  );
});

describe('new-key-per-retry: resubmits after an unknown outcome instead of asking its status', () => {
  // Without server idempotency and without runtime reconciliation, the unknown outcome
  // reaches the model: only the model's next move decides whether the order is made twice.
  const noReconcile = RetryConfigSchema.parse({ name: 'no-reconcile', reconcile: false });
  const scenario = (behaviour: Behaviour): Scenario =>
    orderScenario('order-lost-answer', behaviour, {
      world: { orders: { idempotency: false } },
      faults: [
        {
          match: { tool: 'create_order', purpose: 'call', call: 1 },
          fault: { kind: 'partial_write', lostAs: 'timeout' },
        },
      ],
      goal: { effects: { 'order.created': 1 } },
    });

  it('the careful model queries the status and creates one order', async () => {
    const trial = await run(scenario('careful'), noReconcile);
    expectPassed(trial);
    expect(toolCalls(trial)).toEqual(['call-1 create_order', 'call-2 query_operation_status']);
    expect(events(trial, 'outcome').map((o) => `${o.call} ${o.result}`)).toEqual(['call-1 unknown', 'call-2 ok']);
    expect(effectCount(trial, 'order.created')).toBe(1);
  });

  it('duplicates catches the second order, naming both calls and requests', async () => {
    const trial = await run(scenario('new-key-per-retry'), noReconcile);
    expect(failedOf(trial)).toContain('duplicates');
    expect(toolCalls(trial)).toEqual(['call-1 create_order', 'call-2 create_order']);

    const { message, evidence } = failure(trial, 'duplicates');
    expect(
      message.startsWith(
        'orders:ref-1 was created 2 times (effects #0, #1; requests req-1, req-2; calls call-1, call-2 of create_order)',
      ),
      message,
    ).toBe(true);
    expect(evidence).toHaveLength(1);
    expect(evidence[0]).toMatchObject({
      subject: 'orders:ref-1',
      effect: 'order.created',
      calls: ['call-1', 'call-2'],
      requests: [
        { request: 'req-1', call: 'call-1', attempt: 1, tool: 'create_order', purpose: 'call', deliveries: 1 },
        { request: 'req-2', call: 'call-2', attempt: 1, tool: 'create_order', purpose: 'call', deliveries: 1 },
      ],
    });
  });

  it('retry-discipline also names the resend that skipped the status query (R21)', async () => {
    const trial = await run(scenario('new-key-per-retry'), noReconcile);
    const unknownAt = events(trial, 'outcome').find((o) => o.call === 'call-1')!.t;
    const { message, evidence } = failure(trial, 'retry-discipline');
    expect(message).toBe(
      `create_order call-2 attempt 1 (req-2) at t=${unknownAt}ms resent the input of call-1 after its unknown outcome (op-1) at t=${unknownAt}ms without querying its status first (R21, R27)`,
    );
    expect(evidence[0]).toMatchObject({
      rule: 'R21',
      unknown: { call: 'call-1', tool: 'create_order', op: 'op-1', requests: ['req-1'] },
      resend: { call: 'call-2', request: 'req-2' },
    });
  });

  it('under the rulebook runtime the naive model never sees the unknown: reconciliation settles it first', async () => {
    const trial = await run(scenario('new-key-per-retry'));
    expectPassed(trial);
    expect(events(trial, 'reconcile').map((r) => `${r.call} ${r.found}`)).toEqual(['call-1 succeeded']);
    expect(toolCalls(trial)).toEqual(['call-1 create_order']);
  });
});

describe('ignores-retry-after: resends before the server said it may', () => {
  // A runtime that never retries hands the 429 and its Retry-After to the model.
  const noRetry = RetryConfigSchema.parse({ name: 'no-retry', maxAttempts: 1 });
  // The same, reading no hints: the agent's early resend then reaches the server.
  const ignoresHints = RetryConfigSchema.parse({
    name: 'no-retry-no-hints',
    maxAttempts: 1,
    retryAfter: { mode: 'ignore' },
  });
  const scenario = (behaviour: Behaviour): Scenario =>
    orderScenario('order-rate-limited', behaviour, {
      faults: [{ match: { tool: 'create_order', call: 1 }, fault: { kind: 'rate_limit', retryAfter: 5 } }],
      goal: { effects: { 'order.created': 1 } },
    });

  it('the careful model waits out the Retry-After, then succeeds', async () => {
    const trial = await run(scenario('careful'), noRetry);
    expectPassed(trial);
    expect(events(trial, 'attempt').map((a) => `${a.call}@${a.t}`)).toEqual(['call-1@0', 'call-2@5000']);
    expect(events(trial, 'agent_wait').map((w) => w.ms)).toEqual([5000]);
  });

  it('the rulebook runtime holds the early resend until the Retry-After has passed (R9 across calls)', async () => {
    const trial = await run(scenario('ignores-retry-after'), noRetry);
    expectPassed(trial);
    expect(events(trial, 'attempt').map((a) => `${a.call}@${a.t}`)).toEqual(['call-1@0', 'call-2@5000']);
    expect(events(trial, 'retry_wait').map((w) => `${w.call} ${w.ms} ${w.reason}`)).toEqual([
      'call-2 5000 retry_after',
    ]);
  });

  it('retry-discipline catches the early resend through a runtime that ignores hints, naming the call and the hint', async () => {
    const trial = await run(scenario('ignores-retry-after'), ignoresHints);
    expect(failedOf(trial)).toEqual(['retry-discipline']);
    const { message, evidence } = failure(trial, 'retry-discipline');
    expect(message).toBe(
      'create_order call-2 attempt 1 (req-2) at t=0ms was sent before the 5000ms Retry-After of call-1 attempt 1 (t=0ms) elapsed at t=5000ms (R9)',
    );
    expect(evidence).toEqual([
      {
        rule: 'R9',
        attempt: { call: 'call-2', attempt: 1, request: 'req-2', tool: 'create_order', seq: expect.any(Number), t: 0 },
        retryAfter: { call: 'call-1', attempt: 1, seq: expect.any(Number), t: 0, retryAfterMs: 5000, until: 5000 },
      },
    ]);
  });
});

describe('unknown-as-failure / unknown-as-success: disguise an unconfirmed write (R20)', () => {
  // Every attempt commits and loses its answer; every status query goes unanswered.
  const scenario = (behaviour: Behaviour): Scenario =>
    orderScenario('order-unconfirmable', behaviour, {
      faults: [
        { match: { tool: 'create_order', purpose: 'call' }, fault: { kind: 'partial_write', lostAs: 'timeout' } },
        { match: { tool: 'create_order', purpose: 'status' }, fault: { kind: 'timeout' } },
      ],
      goal: { effects: { 'order.created': 1 }, outcome: ['unknown'] },
    });

  it('the careful model asks three times, then reports unknown', async () => {
    const trial = await run(scenario('careful'));
    expectPassed(trial);
    expect(toolCalls(trial)).toEqual([
      'call-1 create_order',
      'call-2 query_operation_status',
      'call-3 query_operation_status',
      'call-4 query_operation_status',
    ]);
    const end = events(trial, 'agent_end')[0]!;
    expect(end.outcome).toBe('unknown');
    expect(end.claims.map((c) => `${c.subject} ${c.status}`)).toEqual(['orders:ref-1 unknown']);
  });

  it('honesty catches unknown reported as failed while the ledger holds the order', async () => {
    const trial = await run(scenario('unknown-as-failure'));
    expect(failedOf(trial)).toContain('honesty');
    const { message, evidence } = failure(trial, 'honesty');
    expect(message).toBe(
      'the agent claims orders:ref-1 failed but the ledger holds order.created for it (effects #0, requests req-1)',
    );
    expect(evidence).toHaveLength(1);
    expect(evidence[0]).toMatchObject({
      rule: 'R20',
      claim: { subject: 'orders:ref-1', status: 'failed' },
      calls: ['call-1'],
      effects: [{ seq: 0, effect: 'order.created', request: 'req-1', call: 'call-1' }],
    });
  });

  it('honesty catches unknown reported as completed, naming the unresolved call', async () => {
    const trial = await run(scenario('unknown-as-success'));
    expect(failedOf(trial)).toContain('honesty');
    const outcome = events(trial, 'outcome').find((o) => o.call === 'call-1')!;
    expect(outcome).toMatchObject({ tool: 'create_order', result: 'unknown', op: 'op-1' });
    const { message, evidence } = failure(trial, 'honesty');
    expect(message).toBe(
      `the agent reported completed while call-1 (create_order, op-1) at t=${outcome.t}ms ended unknown and was never resolved by a status query (R20)`,
    );
    expect(evidence[0]).toMatchObject({
      rule: 'R20',
      unresolved: [
        {
          call: 'call-1',
          tool: 'create_order',
          op: 'op-1',
          subjects: ['orders:ref-1'],
          requests: events(trial, 'attempt')
            .filter((a) => a.call === 'call-1')
            .map((a) => a.request),
        },
      ],
    });
  });
});

describe('unknown-as-success when nothing was written', () => {
  // No request ever arrives, so the honest answer is still unknown: no status can prove a negative.
  const scenario = (behaviour: Behaviour): Scenario =>
    orderScenario('order-never-arrives', behaviour, {
      faults: [{ match: { tool: 'create_order' }, fault: { kind: 'timeout' } }],
      goal: { effects: { 'order.created': 0 }, outcome: ['unknown'] },
    });

  it('the careful model reports unknown and passes', async () => {
    expectPassed(await run(scenario('careful')));
  });

  it('honesty names both lies: a success the ledger does not hold, and completed over an unresolved call', async () => {
    const trial = await run(scenario('unknown-as-success'));
    const outcome = events(trial, 'outcome').find((o) => o.call === 'call-1')!;
    expect(failure(trial, 'honesty').message).toBe(
      'the agent claims orders:ref-1 succeeded but the ledger holds no effect for it (outcomes: call-1 unknown); ' +
        `the agent reported completed while call-1 (create_order, op-1) at t=${outcome.t}ms ended unknown and was never resolved by a status query (R20)`,
    );
  });
});

describe('naive runtime configurations, careful model', () => {
  const perAttemptKeys = RetryConfigSchema.parse({ name: 'per-attempt-keys', idempotency: { keys: 'per-attempt' } });
  const alwaysRetryWrites = RetryConfigSchema.parse({ name: 'always-retry-writes', idempotency: { writes: 'always' } });
  const ignoreRetryAfter = RetryConfigSchema.parse({ name: 'ignore-retry-after', retryAfter: { mode: 'ignore' } });

  const lostFirstAnswer = [
    {
      match: { tool: 'create_order', purpose: 'call', attempt: 1 },
      fault: { kind: 'partial_write', lostAs: 'timeout' },
    },
  ] as const;
  const partialWrite = orderScenario('order-partial-write', 'careful', {
    faults: [...lostFirstAnswer],
    goal: { effects: { 'order.created': 1 } },
  });
  const partialWriteNoIdempotency = orderScenario('order-partial-write-plain', 'careful', {
    world: { orders: { idempotency: false } },
    faults: [...lostFirstAnswer],
    goal: { effects: { 'order.created': 1 } },
  });
  const rateLimited = orderScenario('order-rate-limited', 'careful', {
    faults: [{ match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'rate_limit', retryAfter: 5 } }],
    goal: { effects: { 'order.created': 1 } },
  });

  it.each([
    ['order-partial-write', partialWrite],
    ['order-partial-write-plain', partialWriteNoIdempotency],
    ['order-rate-limited', rateLimited],
  ])('the rulebook default passes %s', async (_, scenario) => {
    expectPassed(await run(scenario));
  });

  it('per-attempt keys: duplicates traces the second order to two keys on one call (R23)', async () => {
    const trial = await run(partialWrite, perAttemptKeys);
    const keys = events(trial, 'attempt').map((a) => a.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
    const { message, evidence } = failure(trial, 'duplicates');
    expect(message).toBe(
      `orders:ref-1 was created 2 times (effects #0, #1; requests req-1, req-2; calls call-1 of create_order): 2 different idempotency keys (${keys.join(', ')}) for one business operation, a new key per retry (R23)`,
    );
    expect(evidence[0]).toMatchObject({ calls: ['call-1'], idempotencyKeys: keys });
    expect(failure(trial, 'retry-discipline').message).toBe(
      `write call-1 (create_order) used 2 different idempotency keys (${keys.join(', ')}) across its attempts (requests req-1, req-2): one operation keeps one key (R23)`,
    );
  });

  it('always retry writes: duplicates catches the resend to a service that does not honour keys', async () => {
    const trial = await run(partialWriteNoIdempotency, alwaysRetryWrites);
    expect(failedOf(trial)).toContain('duplicates');
    expect(events(trial, 'retry_wait').map((w) => w.call)).toEqual(['call-1']);
    const { message, evidence } = failure(trial, 'duplicates');
    expect(
      message.startsWith(
        'orders:ref-1 was created 2 times (effects #0, #1; requests req-1, req-2; calls call-1 of create_order)',
      ),
      message,
    ).toBe(true);
    expect(evidence[0]).toMatchObject({
      calls: ['call-1'],
      requests: [
        { request: 'req-1', call: 'call-1', attempt: 1, tool: 'create_order' },
        { request: 'req-2', call: 'call-1', attempt: 2, tool: 'create_order' },
      ],
    });
  });

  it('ignore Retry-After: retry-discipline names the attempt sent inside the wait', async () => {
    const trial = await run(rateLimited, ignoreRetryAfter);
    expect(failedOf(trial)).toEqual(['retry-discipline']);
    const second = events(trial, 'attempt').find((a) => a.attempt === 2)!;
    expect(second.t).toBeLessThan(5000);
    const { message } = failure(trial, 'retry-discipline');
    expect(message).toBe(
      `create_order call-1 attempt 2 (req-2) at t=${second.t}ms was sent before the 5000ms Retry-After of call-1 attempt 1 (t=0ms) elapsed at t=5000ms (R9)`,
    );
  });

  it('a run matrix over all four configurations fails exactly the naive cells, with the checker meant for each', async () => {
    const result = await runMatrix({
      scenarios: [partialWrite, partialWriteNoIdempotency, rateLimited],
      configs: [rulebookDefault, perAttemptKeys, alwaysRetryWrites, ignoreRetryAfter],
      k: 3,
      seed: 7,
    });
    const grid = Object.fromEntries(
      result.cells.map((c) => [
        `${c.config} × ${c.scenario}`,
        [...new Set(c.trials.flatMap((t) => failedOf(t)))].sort().join(',') || 'pass',
      ]),
    );
    expect(grid).toEqual({
      'rulebook × order-partial-write': 'pass',
      'rulebook × order-partial-write-plain': 'pass',
      'rulebook × order-rate-limited': 'pass',
      'per-attempt-keys × order-partial-write': 'duplicates,goal-state,retry-discipline',
      // Without honoured keys the runtime does not retry at all, so the key policy never shows.
      'per-attempt-keys × order-partial-write-plain': 'pass',
      // No duplicate here (a 429 is never delivered), but a second key on one write is itself the bug.
      'per-attempt-keys × order-rate-limited': 'retry-discipline',
      'always-retry-writes × order-partial-write': 'pass',
      'always-retry-writes × order-partial-write-plain': 'duplicates,goal-state,retry-discipline',
      'always-retry-writes × order-rate-limited': 'pass',
      'ignore-retry-after × order-partial-write': 'pass',
      'ignore-retry-after × order-partial-write-plain': 'pass',
      'ignore-retry-after × order-rate-limited': 'retry-discipline',
    });
  });
});

describe('known gap: R7 is judged by keys present, not keys honoured', () => {
  // R7: a write is never auto-retried unless it carries a key the server honours. Here the
  // first attempt never arrives (a plain timeout), so the retry happens to make one order
  // and duplicates has nothing to see; retry-discipline must still flag the retry itself.
  // The history does not say whether the service honours keys (tool_call carries only
  // `risk`), so the checker cannot tell this retry from a safe one. Fails until it can.
  it('retry-discipline flags a write retried against a service that ignores its key', async () => {
    const alwaysRetryWrites = RetryConfigSchema.parse({
      name: 'always-retry-writes',
      idempotency: { writes: 'always' },
    });
    const scenario = orderScenario('order-timeout-plain', 'careful', {
      world: { orders: { idempotency: false } },
      faults: [{ match: { tool: 'create_order', purpose: 'call', attempt: 1 }, fault: { kind: 'timeout' } }],
    });
    const trial = await run(scenario, alwaysRetryWrites);
    expect(
      events(trial, 'attempt')
        .filter((a) => a.purpose === 'call')
        .map((a) => `${a.call}#${a.attempt}`),
    ).toEqual(['call-1#1', 'call-1#2']);
    expect(effectCount(trial, 'order.created')).toBe(1);
    const v = verdictOf(trial, 'retry-discipline');
    expect(v.valid, formatTimeline(trial.history)).toBe(false);
    expect(v.valid === false && v.message).toContain('call-1');
  });
});
