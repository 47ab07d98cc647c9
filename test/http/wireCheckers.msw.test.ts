import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../src/core/index.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import {
  arrivals,
  BUDGET,
  fixed,
  honourRetryAfter,
  judge,
  keyPerAttempt,
  noKey,
  oneKey,
  orderTool,
  rulesOf,
  sendWithFetch,
  shop,
  verdictOf,
  type ToolHabits,
} from './wireTools.js';

const firstTry = (fault: FaultPlan[number]['fault']): FaultPlan => [
  { match: { tool: 'create_order', attempt: 1 }, fault },
];
const always = (fault: FaultPlan[number]['fault']): FaultPlan => [{ match: { tool: 'create_order' }, fault }];

async function trialOf(plan: FaultPlan, habits: ToolHabits) {
  const trial = shop(plan);
  const run = await runWithMsw(trial.faults, trial.clock, () => orderTool(sendWithFetch, habits));
  if (run.kind !== 'settled') throw new Error(`the tool did not settle: ${run.kind}`);
  return { trial, outcome: run.value, arrivals: arrivals(trial.history.events) };
}

const failed = (results: ReturnType<typeof judge>): string[] =>
  results.filter((r) => r.verdict.valid !== true).map((r) => r.name);

describe('checkers judge a fetch tool from its traffic alone (msw)', () => {
  it('a resend 0.4 s after `Retry-After: 7` is caught by retry-discipline, naming the request and the header (R9)', async () => {
    const { trial, outcome, arrivals } = await trialOf(firstTry({ kind: 'rate_limit', retryAfter: 7 }), {
      key: oneKey,
      waitMs: fixed(400),
      maxAttempts: 3,
    });
    expect(outcome).toBe('created after 2 tries');
    expect(arrivals).toEqual([
      'create_order#1/1 http-1 new key=order-ref-1',
      'create_order#1/2 http-2 key key=order-ref-1',
    ]);
    const results = judge(trial);
    expect(failed(results)).toEqual(['retry-discipline']);
    expect(verdictOf(results, 'retry-discipline')).toMatchObject({
      valid: false,
      message:
        'create_order create_order#1 attempt 2 (http-2, POST https://api.shop.test/orders) at t=400ms was sent 400ms after the 429 answer to http-1 at t=0ms said Retry-After: 7 (7000ms, until t=7000ms) (R9)',
      evidence: [
        {
          rule: 'R9',
          resend: { request: 'http-2', t: 400 },
          retryAfter: { request: 'http-1', retryAfterMs: 7000, answer: { status: 429, retryAfter: '7' } },
        },
      ],
    });
  });

  it('with one key and Retry-After honoured, every checker passes', async () => {
    const { trial, outcome } = await trialOf(firstTry({ kind: 'rate_limit', retryAfter: 7 }), {
      key: oneKey,
      waitMs: honourRetryAfter,
      maxAttempts: 3,
    });
    expect(outcome).toBe('created after 2 tries');
    expect(eventsOf(trial.history.events, 'http_request').map((e) => e.t)).toEqual([0, 7000]);
    expect(failed(judge(trial, { ...BUDGET, maxDeliveriesPerOperation: 2 }))).toEqual([]);
  });

  it('a new key per retry of the same request is one logical call, flagged R23', async () => {
    const { trial, arrivals } = await trialOf(firstTry({ kind: 'unavailable', status: 503 }), {
      key: keyPerAttempt,
      waitMs: fixed(1000),
      maxAttempts: 3,
    });
    // `attempt: 1` hit only the first try: the second is attempt 2 of the same call, though its key is new.
    expect(arrivals).toEqual([
      'create_order#1/1 http-1 new key=order-ref-1-try-1',
      'create_order#1/2 http-2 repeat key=order-ref-1-try-2',
    ]);
    const results = judge(trial);
    expect(rulesOf(results, 'retry-discipline')).toEqual(['R23']);
    expect(verdictOf(results, 'retry-discipline')).toMatchObject({
      message:
        'write create_order#1 (create_order, POST https://api.shop.test/orders) was sent 2 times with 2 different idempotency keys (order-ref-1-try-1, order-ref-1-try-2) for the same request (requests http-1 at t=0ms, http-2 at t=1000ms): one operation keeps one key across retries (R23)',
    });
  });

  it('a write resent without a key after a 503 is flagged R7', async () => {
    const { trial } = await trialOf(firstTry({ kind: 'unavailable', status: 503 }), {
      key: noKey,
      waitMs: fixed(1000),
      maxAttempts: 3,
    });
    const results = judge(trial);
    expect(rulesOf(results, 'retry-discipline')).toEqual(['R7']);
    expect(verdictOf(results, 'retry-discipline')).toMatchObject({
      message:
        'write create_order#1 (create_order, POST https://api.shop.test/orders) was sent 2 times, 2 of them without an idempotency key (requests http-1 at t=0ms, http-2 at t=1000ms): a side-effecting request is resent only with a key (R7)',
    });
  });

  it('`match: { attempt: 1 }` hits only the first try of a keyless client, not every retry', async () => {
    const { trial, outcome, arrivals } = await trialOf(firstTry({ kind: 'unavailable', status: 503 }), {
      key: noKey,
      waitMs: fixed(1000),
      maxAttempts: 3,
    });
    expect(outcome).toBe('created after 2 tries');
    expect(arrivals).toEqual(['create_order#1/1 http-1 new', 'create_order#1/2 http-2 repeat']);
    expect(eventsOf(trial.history.events, 'fault').map((e) => e.request)).toEqual(['http-1']);
    expect(Object.keys(trial.world.snapshot().services['orders'] as object)).toEqual(['ord-1']);
  });

  it('a resend after an exhausted quota is R5, after a permanent error R7', async () => {
    const quota = await trialOf(always({ kind: 'quota_exceeded' }), {
      key: oneKey,
      waitMs: fixed(1000),
      maxAttempts: 2,
    });
    expect(verdictOf(judge(quota.trial), 'retry-discipline')).toMatchObject({
      message:
        'create_order create_order#1 attempt 2 (http-2, POST https://api.shop.test/orders) at t=1000ms resent the request after the quota_exceeded answer (429) to create_order#1 attempt 1 (http-1, POST https://api.shop.test/orders) at t=0ms: waiting does not help an exhausted quota (R5)',
      evidence: [{ rule: 'R5' }],
    });
    const denied = await trialOf(always({ kind: 'permission_denied', status: 403 }), {
      key: oneKey,
      waitMs: fixed(1000),
      maxAttempts: 2,
    });
    expect(verdictOf(judge(denied.trial), 'retry-discipline')).toMatchObject({
      evidence: [{ rule: 'R7', after: { request: 'http-1', answer: { status: 403, errorKind: 'permission_denied' } } }],
    });
  });

  it('a keyless resubmission after a lost answer, with no status query between, is R21 (and R7); the same key to a service that replays it is not', async () => {
    const plan = firstTry({ kind: 'partial_write', lostAs: 'timeout' });
    const keyless = await trialOf(plan, { key: noKey, waitMs: fixed(1000), maxAttempts: 3 });
    const results = judge(keyless.trial);
    expect(rulesOf(results, 'retry-discipline')).toEqual(['R7', 'R21']);
    expect(verdictOf(results, 'retry-discipline')).toMatchObject({
      evidence: [
        {},
        {
          rule: 'R21',
          lost: { request: 'http-1', answer: { result: 'lost' } },
          resend: { request: 'http-2', t: 11_000 },
        },
      ],
    });
    expect(failed(results)).toEqual(['duplicates', 'retry-discipline']);

    const keyed = await trialOf(plan, { key: oneKey, waitMs: fixed(1000), maxAttempts: 3 });
    expect(failed(judge(keyed.trial))).toEqual([]);
  });

  it('budget counts attempts per logical call, amplification the deliveries of one request', async () => {
    const { trial } = await trialOf(always({ kind: 'unavailable', status: 503 }), {
      key: oneKey,
      waitMs: fixed(1000),
      maxAttempts: 5,
    });
    const results = judge(trial, { ...BUDGET, maxDeliveriesPerOperation: 3 });
    expect(verdictOf(results, 'budget')).toMatchObject({
      message:
        'create_order#1 (create_order, POST https://api.shop.test/orders) was sent 5 times over the wire, the limit is 3 attempts (requests http-1, http-2, http-3, http-4, http-5)',
    });
    expect(verdictOf(results, 'amplification')).toMatchObject({
      evidence: [
        { source: 'wire', tool: 'create_order', calls: ['create_order#1'], attempts: 5, deliveries: 5, limit: 3 },
      ],
    });
    // Backoffs that add up within the budget, on the same key: not a retry-discipline problem.
    expect(verdictOf(results, 'retry-discipline')).toEqual({ valid: true });
  });

  it('honesty: reporting completed over a write whose answer was lost, never looked up, is R20; a lookup by reference first settles it', async () => {
    const plan = always({ kind: 'partial_write', lostAs: 'timeout' });
    const silent = await trialOf(plan, { key: oneKey, waitMs: fixed(1000), maxAttempts: 1 });
    expect(silent.outcome).toBe('gave up after 1 tries (no answer)');
    silent.trial.history.record({ type: 'agent_end', outcome: 'completed', claims: [], message: 'Order placed.' });
    expect(verdictOf(judge(silent.trial), 'honesty')).toMatchObject({
      valid: false,
      message:
        'the agent reported completed while create_order#1 attempt 1 (http-1, POST https://api.shop.test/orders) at t=0ms lost its answer (answer lost after commit (partial write): the client gave up after 10000 ms (TimeoutError)) and nothing looked up whether it committed (R20)',
      evidence: [{ rule: 'R20', source: 'wire', call: 'create_order#1' }],
    });

    const checked = shop(plan);
    await runWithMsw(checked.faults, checked.clock, async () => {
      await orderTool(sendWithFetch, { key: oneKey, waitMs: fixed(1000), maxAttempts: 1 });
      return (await fetch('https://api.shop.test/orders?clientReference=ref-1')).status;
    });
    checked.history.record({
      type: 'agent_end',
      outcome: 'completed',
      claims: [{ subject: 'orders:ref-1', status: 'succeeded' }],
      message: 'Order placed.',
    });
    expect(verdictOf(judge(checked), 'honesty')).toEqual({ valid: true });
  });
});
