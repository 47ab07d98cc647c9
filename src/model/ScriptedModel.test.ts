import { describe, expect, it } from 'vitest';
import { History, VirtualClock } from '../core/index.js';
import { BEHAVIOURS, type Behaviour } from './behaviours.js';
import { runAgentLoop } from '../agent/loop.js';
import { ScriptedModel } from './ScriptedModel.js';
import type { ScriptPlanInput } from './script.js';
import { POLLING_DEPLOY } from './pollingDeploy.testkit.js';
import { FakeExecutor, fail, ok, unknownOutcome, type FakeAnswer } from '../agent/testing/FakeExecutor.js';

type Answers = Readonly<Record<string, readonly FakeAnswer[]>>;

async function play(plan: ScriptPlanInput, answers: Answers, behaviour: Behaviour = 'careful') {
  const clock = new VirtualClock();
  const history = new History(clock);
  const executor = new FakeExecutor(clock, answers);
  const model = new ScriptedModel(plan, { behaviour });
  const run = await clock.run(() => runAgentLoop({ model, executor, task: 'task', maxTurns: 40, history, clock }));
  if (run.kind !== 'settled') throw new Error(`run ended as ${run.kind}`);
  return { end: run.value, trace: executor.trace, history: history.events };
}

const order = (more: Partial<ScriptPlanInput['steps'][number]> = {}): ScriptPlanInput => ({
  steps: [{ name: 'order', tool: 'create_order', input: { ref: 'ref-1', qty: 1 }, subject: 'orders:ref-1', ...more }],
  finalMessage: 'Order placed.',
});
const ORDER_CALL = 'create_order({"ref":"ref-1","qty":1})';
const STATUS_CALL = 'query_operation_status({"operation_id":"op-1"})';

const ended = (outcome: string, status: 'succeeded' | 'failed' | 'unknown', turns: number) =>
  expect.objectContaining({
    kind: 'ended',
    outcome,
    turns,
    claims: [expect.objectContaining({ subject: 'orders:ref-1', status })],
  });

describe('ScriptedModel (careful)', () => {
  it('runs the steps in order, substituting earlier results, and completes with its claims', async () => {
    const plan: ScriptPlanInput = {
      steps: [
        { name: 'order', tool: 'create_order', input: { ref: 'ref-1' }, subject: 'orders:ref-1' },
        { tool: 'send_email', input: { order: '$order.id', lines: '$order.lines' }, subject: 'email:confirm-1' },
      ],
      finalMessage: 'Ordered and confirmed.',
    };
    const r = await play(plan, { create_order: [ok({ id: 'ord-7', lines: [1, 2] })], send_email: [ok()] });
    expect(r.trace).toEqual(['0 create_order({"ref":"ref-1"})', '0 send_email({"order":"ord-7","lines":[1,2]})']);
    expect(r.end).toEqual({
      kind: 'ended',
      outcome: 'completed',
      message: 'Ordered and confirmed.',
      turns: 3,
      claims: [
        { subject: 'orders:ref-1', status: 'succeeded' },
        { subject: 'email:confirm-1', status: 'succeeded' },
      ],
    });
  });

  it('applies its fixes once after invalid_argument, and fails if the fixed call is refused too', async () => {
    const fixed = await play(order({ fixes: { qty: 2 } }), {
      create_order: [fail('invalid_argument'), ok({ id: 'o' })],
    });
    expect(fixed.trace).toEqual([`0 ${ORDER_CALL}`, '0 create_order({"ref":"ref-1","qty":2})']);
    expect(fixed.end).toEqual(ended('completed', 'succeeded', 3));

    const twice = await play(order({ fixes: { qty: 2 } }), {
      create_order: [fail('invalid_argument'), fail('invalid_argument')],
    });
    expect(twice.trace).toHaveLength(2);
    expect(twice.end).toEqual(ended('failed', 'failed', 3));

    const noFixes = await play(order(), { create_order: [fail('invalid_argument', { message: 'qty must be even' })] });
    expect(noFixes.trace).toEqual([`0 ${ORDER_CALL}`]);
    expect(noFixes.end).toEqual({
      kind: 'ended',
      outcome: 'failed',
      message: 'create_order: invalid_argument: qty must be even',
      turns: 2,
      claims: [{ subject: 'orders:ref-1', status: 'failed', note: 'create_order: invalid_argument: qty must be even' }],
    });
  });

  it.each(['quota_exceeded', 'permission_denied'] as const)(
    'hands %s to a person without retrying (R5, R14)',
    async (kind) => {
      const r = await play(order(), { create_order: [fail(kind, { retryable: kind === 'quota_exceeded' })] });
      expect(r.trace).toEqual([`0 ${ORDER_CALL}`]);
      expect(r.end).toEqual(ended('handoff', 'failed', 2));
    },
  );

  it('waits retry_after_ms, then retries once, when the runtime made a single attempt (R9, R10)', async () => {
    const r = await play(order(), {
      create_order: [fail('rate_limit', { retryable: true, retry_after_ms: 5_000 }), ok({ id: 'o' })],
    });
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`, `5000 ${ORDER_CALL}`]);
    expect(r.end).toEqual(ended('completed', 'succeeded', 4));
    expect(r.history.filter((e) => e.type === 'agent_wait').map((e) => e.type === 'agent_wait' && e.ms)).toEqual([
      5_000,
    ]);

    const noHint = await play(order(), { create_order: [fail('unavailable', { retryable: true }), ok()] });
    expect(noHint.trace).toEqual([`0 ${ORDER_CALL}`, `1000 ${ORDER_CALL}`]);
  });

  it('retries at most once, and never when the runtime already retried (R10)', async () => {
    const twice = await play(order(), {
      create_order: [
        fail('rate_limit', { retryable: true, retry_after_ms: 200 }),
        fail('rate_limit', { retryable: true, retry_after_ms: 200 }),
      ],
    });
    expect(twice.trace).toEqual([`0 ${ORDER_CALL}`, `200 ${ORDER_CALL}`]);
    expect(twice.end).toEqual(ended('failed', 'failed', 4));

    const runtimeRetried = await play(order(), { create_order: [fail('timeout', { retryable: true, attempts: 3 })] });
    expect(runtimeRetried.trace).toEqual([`0 ${ORDER_CALL}`]);
    expect(runtimeRetried.end).toEqual(ended('failed', 'failed', 2));
  });

  it('fails at once on other errors', async () => {
    const r = await play(order(), { create_order: [fail('conflict')] });
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`]);
    expect(r.end).toEqual(ended('failed', 'failed', 2));
  });

  it('after unknown, queries the operation status and goes on with the confirmed value (R21)', async () => {
    const plan: ScriptPlanInput = {
      steps: [
        { name: 'order', tool: 'create_order', input: { ref: 'ref-1', qty: 1 }, subject: 'orders:ref-1' },
        { tool: 'send_email', input: { order: '$order.id' } },
      ],
    };
    const r = await play(plan, {
      create_order: [unknownOutcome('op-1')],
      query_operation_status: [ok({ state: 'pending' }), ok({ state: 'succeeded', value: { id: 'ord-9' } })],
      send_email: [ok()],
    });
    expect(r.trace).toEqual([
      `0 ${ORDER_CALL}`,
      `0 ${STATUS_CALL}`,
      `2000 ${STATUS_CALL}`,
      '2000 send_email({"order":"ord-9"})',
    ]);
    expect(r.end).toEqual({
      kind: 'ended',
      outcome: 'completed',
      message: 'Done: order, send_email.',
      turns: 6,
      claims: [{ subject: 'orders:ref-1', status: 'succeeded' }],
    });
  });

  it('reports a status query that says failed as failed', async () => {
    const r = await play(order(), {
      create_order: [unknownOutcome('op-1')],
      query_operation_status: [ok({ state: 'failed', status: 402, message: 'card declined' })],
    });
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`, `0 ${STATUS_CALL}`]);
    expect(r.end).toEqual(ended('failed', 'failed', 3));
  });

  it('reports unknown, never success or failure, after 3 unconfirmed status queries (R20)', async () => {
    const r = await play(order(), {
      create_order: [unknownOutcome('op-1')],
      query_operation_status: [ok({ state: 'not_found' }), ok({ state: 'pending' }), unknownOutcome('op-2')],
    });
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`, `0 ${STATUS_CALL}`, `2000 ${STATUS_CALL}`, `4000 ${STATUS_CALL}`]);
    expect(r.end).toEqual({
      kind: 'ended',
      outcome: 'unknown',
      message: 'create_order: operation op-1 is still unconfirmed after 3 status queries',
      turns: 7,
      claims: [
        {
          subject: 'orders:ref-1',
          status: 'unknown',
          note: 'create_order: operation op-1 is still unconfirmed after 3 status queries',
        },
      ],
    });
  });

  it('reports unknown without querying when the runtime says only a person can confirm', async () => {
    const r = await play(order(), { create_order: [unknownOutcome('op-1', 'ask_user')] });
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`]);
    expect(r.end).toEqual(ended('unknown', 'unknown', 2));
  });

  describe('polling a long task (R20)', () => {
    const deploy: ScriptPlanInput = { steps: [POLLING_DEPLOY] };
    const jobs = (...states: string[]): FakeAnswer[] => states.map((state) => ok({ state }));
    const claimOf = (end: unknown) => (end as { claims: unknown[] }).claims;

    it('waits everyMs between polls until the state is a success', async () => {
      const r = await play(deploy, { start_deploy: [ok({ job_id: 'j1' })], get_job: jobs('running', 'succeeded') });
      expect(r.trace).toEqual([
        '0 start_deploy({"app":"web"})',
        '1000 get_job({"job":"j1"})',
        '2000 get_job({"job":"j1"})',
      ]);
      expect(r.end).toMatchObject({ kind: 'ended', outcome: 'completed', turns: 6 });
      expect(claimOf(r.end)).toEqual([{ subject: 'deploy:web-1', status: 'succeeded' }]);
    });

    it('claims failed when the job reaches a failure state', async () => {
      const r = await play(deploy, { start_deploy: [ok({ job_id: 'j1' })], get_job: jobs('running', 'failed') });
      expect(r.trace).toHaveLength(3);
      expect(r.end).toMatchObject({ kind: 'ended', outcome: 'failed', message: 'get_job: state is failed' });
      expect(claimOf(r.end)).toEqual([{ subject: 'deploy:web-1', status: 'failed', note: 'get_job: state is failed' }]);
    });

    it('ends unknown, not succeeded, when maxPolls pass without a final state', async () => {
      const r = await play(deploy, {
        start_deploy: [ok({ job_id: 'j1' })],
        get_job: [ok({ state: 'running' }), fail('timeout', { retryable: true }), ok({ state: 'running' })],
      });
      expect(r.trace.map((c) => c.split(' ')[0])).toEqual(['0', '1000', '2000', '3000']);
      expect(r.end).toMatchObject({
        kind: 'ended',
        outcome: 'unknown',
        message: 'get_job: state still running after 3 polls',
      });
      expect(claimOf(r.end)).toEqual([
        { subject: 'deploy:web-1', status: 'unknown', note: 'get_job: state still running after 3 polls' },
      ]);
    });

    // Both found by `faultline explore` on the deploy scenarios (retry-discipline, R7 and R9).
    it('stops polling after a permission error (R7, R14): hands off, the job unknown', async () => {
      const r = await play(deploy, {
        start_deploy: [ok({ job_id: 'j1' })],
        get_job: [ok({ state: 'running' }), fail('permission_denied')],
      });
      expect(r.trace).toHaveLength(3);
      expect(r.end).toMatchObject({ kind: 'ended', outcome: 'handoff' });
      expect(claimOf(r.end)).toEqual([expect.objectContaining({ subject: 'deploy:web-1', status: 'unknown' })]);
    });

    it('waits out a Retry-After longer than the polling interval before the next poll (R9)', async () => {
      const r = await play(deploy, {
        start_deploy: [ok({ job_id: 'j1' })],
        get_job: [fail('rate_limit', { retryable: true, retry_after_ms: 5_000 }), ok({ state: 'succeeded' })],
      });
      expect(r.trace.map((c) => c.split(' ')[0])).toEqual(['0', '1000', '6000']);
      expect(r.end).toMatchObject({ kind: 'ended', outcome: 'completed' });
    });
  });

  it('starts afresh on each new conversation, so one instance serves many trials', async () => {
    const clock = new VirtualClock();
    const model = new ScriptedModel(order());
    const traces: string[][] = [];
    for (let trial = 0; trial < 2; trial++) {
      const executor = new FakeExecutor(clock, { create_order: [fail('unavailable', { retryable: true }), ok()] });
      await clock.run(() =>
        runAgentLoop({ model, executor, task: 't', maxTurns: 10, history: new History(clock), clock }),
      );
      traces.push(executor.calls.map((c) => c.tool));
    }
    expect(traces).toEqual([
      ['create_order', 'create_order'],
      ['create_order', 'create_order'],
    ]);
  });

  it('rejects an invalid plan when constructed', () => {
    expect(() => new ScriptedModel({ steps: [{ tool: 'x', input: { a: '$nope.id' } }] })).toThrow(
      /nope.. names no earlier step/,
    );
  });
});

describe('ScriptedModel reading an earlier step again', () => {
  const plan: ScriptPlanInput = {
    steps: [
      { name: 'found', tool: 'find_order', input: { ref: 'ref-1' }, subject: 'orders:ref-1' },
      { name: 'mail', tool: 'list_outbox', input: {}, subject: 'email:outbox' },
      { tool: 'create_order', ifEmpty: '$found.items', input: { ref: 'ref-1' }, subject: 'orders:ref-1-new' },
    ],
  };

  it('reads the step the placeholder names, and claims its subject when the second read fails', async () => {
    const r = await play(
      plan,
      { find_order: [ok({ items: [] }), fail('permission_denied')], list_outbox: [ok({ items: [1] })] },
      'verifies-critical-reads',
    );
    expect(r.trace).toEqual(['0 find_order({"ref":"ref-1"})', '0 list_outbox({})', '2000 find_order({"ref":"ref-1"})']);
    expect(r.end).toMatchObject({
      kind: 'ended',
      outcome: 'handoff',
      claims: [
        { subject: 'orders:ref-1', status: 'failed' },
        { subject: 'email:outbox', status: 'succeeded' },
      ],
    });
  });

  it('acts on the second read of the named step when it succeeds', async () => {
    const r = await play(
      plan,
      { find_order: [ok({ items: [] }), ok({ items: [{ id: 'o-1' }] })], list_outbox: [ok({ items: [] })] },
      'verifies-critical-reads',
    );
    expect(r.trace).toEqual(['0 find_order({"ref":"ref-1"})', '0 list_outbox({})', '2000 find_order({"ref":"ref-1"})']);
    expect(r.end).toMatchObject({ kind: 'ended', outcome: 'completed' });
  });
});

describe('ScriptedModel naive variants', () => {
  it('lists careful first, then every deliberate bug, then the one more careful than careful', () => {
    // Each deliberate bug is played by its own test below; here, only where careful and the more careful one stand.
    expect([BEHAVIOURS[0], BEHAVIOURS.length, BEHAVIOURS.at(-1)]).toEqual(['careful', 7, 'verifies-critical-reads']);
    expect(new ScriptedModel(order(), { behaviour: 'retries-blindly' }).name).toBe('scripted:retries-blindly');
  });

  it.each(['quota_exceeded', 'permission_denied', 'invalid_argument'] as const)(
    'retries-blindly re-issues the same call 3 more times after %s, then fails',
    async (kind) => {
      const r = await play(
        order({ fixes: { qty: 2 } }),
        { create_order: Array.from({ length: 4 }, () => fail(kind)) },
        'retries-blindly',
      );
      expect(r.trace).toEqual(Array.from({ length: 4 }, () => `0 ${ORDER_CALL}`));
      expect(r.end).toEqual(ended('failed', 'failed', 5));
    },
  );

  it('retries-blindly goes on with the plan if a blind retry happens to work', async () => {
    const r = await play(order(), { create_order: [fail('quota_exceeded'), ok()] }, 'retries-blindly');
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`, `0 ${ORDER_CALL}`]);
    expect(r.end).toEqual(ended('completed', 'succeeded', 3));
  });

  it('new-key-per-retry re-submits after unknown instead of querying status, and claims success', async () => {
    const r = await play(
      order(),
      { create_order: [unknownOutcome('op-1'), ok({ id: 'o2' })], query_operation_status: [] },
      'new-key-per-retry',
    );
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`, `0 ${ORDER_CALL}`]);
    expect(r.end).toEqual(ended('completed', 'succeeded', 3));
  });

  it('ignores-retry-after re-calls at once after retryable errors, up to 3 times', async () => {
    const limited = fail('rate_limit', { retryable: true, retry_after_ms: 5_000 });
    const r = await play(order(), { create_order: [limited, limited, limited, ok()] }, 'ignores-retry-after');
    expect(r.trace).toEqual(Array.from({ length: 4 }, () => `0 ${ORDER_CALL}`));
    expect(r.end).toEqual(ended('completed', 'succeeded', 5));
    expect(r.history.some((e) => e.type === 'agent_wait')).toBe(false);

    const gaveUp = await play(order(), { create_order: [limited, limited, limited, limited] }, 'ignores-retry-after');
    expect(gaveUp.trace).toHaveLength(4);
    expect(gaveUp.end).toEqual(ended('failed', 'failed', 5));

    const quota = await play(order(), { create_order: [fail('quota_exceeded')] }, 'ignores-retry-after');
    expect(quota.end).toEqual(ended('handoff', 'failed', 2));
  });

  it('unknown-as-failure reports unknown as failed without querying', async () => {
    const r = await play(
      order(),
      { create_order: [unknownOutcome('op-1')], query_operation_status: [] },
      'unknown-as-failure',
    );
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`]);
    expect(r.end).toEqual(ended('failed', 'failed', 2));
  });

  it('unknown-as-success reports unknown as completed without querying', async () => {
    const r = await play(
      order(),
      { create_order: [unknownOutcome('op-1')], query_operation_status: [] },
      'unknown-as-success',
    );
    expect(r.trace).toEqual([`0 ${ORDER_CALL}`]);
    expect(r.end).toEqual({
      kind: 'ended',
      outcome: 'completed',
      message: expect.stringContaining('reported as done'),
      turns: 2,
      claims: [{ subject: 'orders:ref-1', status: 'succeeded' }],
    });
  });
});

describe('ScriptedModel after its final answer (issue 43)', () => {
  it(
    'answers the same request again with the same final answer (a resend after a cut answer is a ' +
      'recovery, not an error), and still refuses a turn past it',
    async () => {
      const model = new ScriptedModel(order());
      const base = { task: 'task', tools: [], now: 0 };
      const user = { role: 'user', text: 'task' } as const;
      const first = await model.next({ ...base, messages: [user] });
      expect(first.kind).toBe('tool_calls');
      const result = { kind: 'ok', call: 'c1', tool: 'create_order', attempts: 1, value: { id: 'ord-1' } } as const;
      const conversation = [
        user,
        { role: 'assistant', action: first } as const,
        { role: 'tool', call: 'c1', tool: 'create_order', result, text: '{"id":"ord-1"}' } as const,
      ];
      const final = await model.next({ ...base, messages: conversation });
      expect(final).toMatchObject({ kind: 'final', outcome: 'completed', message: 'Order placed.' });
      // The agent did not get that answer (a cut stream) and sends the same conversation again.
      expect(await model.next({ ...base, messages: conversation })).toEqual(final);
      // A turn past the final answer is still the agent's bug.
      await expect(
        model.next({
          ...base,
          messages: [...conversation, { role: 'assistant', action: final }, { role: 'user', text: 'and?' }],
        }),
      ).rejects.toThrow(/asked for another turn after its final answer/);
    },
  );
});
