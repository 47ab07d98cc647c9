import { describe, expect, it } from 'vitest';
import {
  HttpError,
  History,
  IdSource,
  Rng,
  TimeoutError,
  VirtualClock,
  eventsOf,
  systemError,
  type WireRequest,
} from '../core/index.js';
import { AuditLog } from './audit.js';
import { RetryConfigSchema, type RetryConfigInput } from './config.js';
import { Executor } from './Executor.js';
import { ALL_TOOLS, FakeTransport, HANG, hang, lookupTool, script, searchTool } from './fakeTransport.testkit.js';
import type { OperationStore } from './idempotency/OperationStore.js';
import { RetryBudget } from './retry/RetryBudget.js';
import type { ToolResult } from './result.js';

type Reply = (request: WireRequest, signal?: AbortSignal) => unknown;

function setup(
  config: Partial<RetryConfigInput>,
  reply: Reply,
  extra: { budget?: RetryBudget; audit?: AuditLog; secrets?: string[] } = {},
) {
  const clock = new VirtualClock(0);
  const history = new History(clock);
  const transport = new FakeTransport(ALL_TOOLS, reply);
  const executor = new Executor({
    transport,
    config: RetryConfigSchema.parse({
      name: 'test',
      backoff: { kind: 'fixed', delayMs: 100 },
      perCallTimeoutMs: 1_000,
      ...config,
    }),
    clock,
    rng: new Rng(7),
    history,
    ids: new IdSource(),
    startMs: 0,
    ...extra,
  });
  const call = async (tool: string, input: unknown): Promise<ToolResult> => {
    const run = await clock.run(() => executor.call(tool, input));
    if (run.kind !== 'settled') throw new Error(`call did not settle: ${run.kind}`);
    return run.value;
  };
  const of = <T extends Parameters<typeof eventsOf>[1]>(type: T) => eventsOf(history.events, type);
  return { clock, history, transport, executor, call, of, store: executor.store };
}

const order = { ref: 'ref-1', sku: 'A', qty: 1 };
const quota = () =>
  new HttpError(429, 'You exceeded your current quota', {
    error: { type: 'insufficient_quota', code: 'insufficient_quota' },
  });

describe('Executor: retries', () => {
  it('retries a read through two timeouts and succeeds on the third attempt', async () => {
    const t = setup({}, script([HANG, HANG, { hits: 3 }]));
    const result = await t.call('search', { q: 'x' });
    expect(result).toEqual({ kind: 'ok', call: 'call-1', tool: 'search', attempts: 3, value: { hits: 3 } });
    expect(t.of('attempt_end').map((e) => e.error?.kind ?? 'ok')).toEqual(['timeout', 'timeout', 'ok']);
    expect(t.of('retry_wait').map((e) => [e.attempt, e.ms, e.reason])).toEqual([
      [1, 100, 'backoff'],
      [2, 100, 'backoff'],
    ]);
    expect(t.clock.now()).toBe(2_200);
    expect(t.of('outcome')).toMatchObject([{ call: 'call-1', result: 'ok', attempts: 3 }]);
  });

  it.each([
    ['quota', quota(), 'quota_exceeded', ['ask_user', 'stop']],
    ['401', new HttpError(401, 'bad key'), 'permission_denied', ['ask_user', 'stop']],
    ['403', new HttpError(403, 'forbidden'), 'permission_denied', ['ask_user', 'stop']],
    ['400', new HttpError(400, 'date is required'), 'invalid_argument', ['fix_arguments']],
  ])('never retries %s', async (_name, error, kind, next) => {
    const t = setup({}, script([error, { ok: true }]));
    const result = await t.call('search', { q: 'x' });
    expect(t.transport.sent).toHaveLength(1);
    expect(result.kind === 'error' && result.error).toMatchObject({
      error_type: kind,
      retryable: false,
      attempts: 1,
      next_actions: next,
    });
    expect(t.of('give_up')).toMatchObject([{ reason: 'not_retryable' }]);
    expect(t.of('retry_wait')).toEqual([]);
  });

  it('rejects input that fails the schema without sending, naming each field', async () => {
    const t = setup({}, script([{ ok: true }]));
    const result = await t.call('create_order', { sku: 1, qty: 1, extra: true });
    expect(t.transport.sent).toEqual([]);
    expect(result).toMatchObject({ kind: 'error', attempts: 0 });
    expect(result.kind === 'error' && result.error).toMatchObject({
      error_type: 'invalid_argument',
      next_actions: ['fix_arguments'],
      field_errors: [
        { path: 'ref', expected: 'required: string' },
        { path: 'sku', expected: 'string' },
        { path: 'extra', expected: 'no such field: remove it' },
      ],
    });
    expect(t.of('operation')).toEqual([]);
  });

  it('answers an unknown tool with not_found and use_another_tool, sending nothing', async () => {
    const t = setup({}, script([{ ok: true }]));
    const result = await t.call('serach', { q: 'x' });
    expect(t.transport.sent).toEqual([]);
    expect(result.kind === 'error' && result.error).toMatchObject({
      error_type: 'not_found',
      next_actions: ['use_another_tool'],
      attempts: 0,
    });
    expect(t.of('outcome')).toMatchObject([{ result: 'error', attempts: 0, error: { kind: 'not_found' } }]);
  });

  it('never retries a write whose server does not honour keys, and never a write under writes: never', async () => {
    const t = setup({}, script([systemError('ECONNREFUSED', 'connect ECONNREFUSED'), { ok: true }]));
    const email = await t.call('send_email', { to: 'a@b', body: 'hi' });
    expect(email).toMatchObject({ kind: 'error', attempts: 1 });
    expect(t.of('give_up')).toMatchObject([{ reason: 'write_without_key' }]);

    const never = setup(
      { idempotency: { keys: 'per-operation', writes: 'never' } },
      script([new HttpError(503, 'busy'), { id: 1 }]),
    );
    await never.call('create_order', order);
    expect(never.transport.sent).toHaveLength(1);
    expect(never.of('give_up')).toMatchObject([{ reason: 'write_without_key' }]);

    const noKeys = setup(
      { idempotency: { keys: 'none', writes: 'with-honoured-key' } },
      script([new HttpError(503, 'busy'), { id: 1 }]),
    );
    await noKeys.call('create_order', order);
    expect(noKeys.transport.sent).toHaveLength(1);
    expect(noKeys.transport.sent[0]).not.toHaveProperty('idempotencyKey');
  });

  it('sends one key on every attempt of an operation, and a new key per attempt under per-attempt', async () => {
    const steps = [new HttpError(503, 'busy'), new HttpError(503, 'busy'), { id: 'o1' }];
    const same = setup({}, script(steps));
    expect(await same.call('create_order', order)).toMatchObject({ kind: 'ok', attempts: 3 });
    const keys = same.transport.sent.map((r) => r.idempotencyKey);
    expect(keys[0]).toMatch(/^idem-[0-9a-f]{16}$/);
    expect(new Set(keys).size).toBe(1);
    expect(same.of('attempt').map((e) => e.idempotencyKey)).toEqual(keys);

    const fresh = setup({ idempotency: { keys: 'per-attempt', writes: 'with-honoured-key' } }, script(steps));
    await fresh.call('create_order', order);
    const freshKeys = fresh.transport.sent.map((r) => r.idempotencyKey);
    expect(new Set(freshKeys).size).toBe(3);
    expect((await fresh.store.list())[0]?.idempotencyKey).toBe(freshKeys[2]);
  });

  it('gives the same seed the same keys and waits', async () => {
    const jittered = { backoff: { kind: 'exponential', baseMs: 100, capMs: 5_000, jitter: 'full' } } as const;
    const runOnce = async () => {
      const t = setup(jittered, script([new HttpError(503, 'busy'), new HttpError(503, 'busy'), { id: 'o1' }]));
      await t.call('create_order', order);
      return [t.transport.sent.map((r) => r.idempotencyKey), t.of('retry_wait').map((e) => e.ms)];
    };
    expect(await runOnce()).toEqual(await runOnce());
  });

  it('draws keys and jitter from forks of its rng by label alone, whenever they are first needed', async () => {
    const jittered = { backoff: { kind: 'exponential', baseMs: 100, capMs: 5_000, jitter: 'full' } } as const;
    const t = setup(jittered, script([new HttpError(503, 'busy'), new HttpError(503, 'busy'), { id: 'o1' }]));
    // A read first: it fails and waits (jitter), and mints no key; the write's key comes later, from its own fork.
    await t.call('search', { q: 'x' });
    await t.call('create_order', order);
    const keys = new Rng(7).fork('runtime:idempotency-keys');
    expect(
      t.transport
        .calls()
        .filter((r) => r.tool === 'create_order')
        .map((r) => r.idempotencyKey),
    ).toEqual(Array(3).fill(`idem-${keys.hex(16)}`));
    const jitter = new Rng(7).fork('runtime:backoff');
    const full = (attempt: number): number => Math.floor(jitter.between(0, Math.min(5_000, 100 * 2 ** (attempt - 1))));
    expect(t.of('retry_wait').map((e) => e.ms)).toEqual([full(1), full(2), full(1), full(2)]);
  });

  it("answers each tool name with the last contract of that name, and the runtime's own status query", async () => {
    const clock = new VirtualClock(0);
    const shadowed = { ...lookupTool, name: 'search' };
    const ownQuery = { ...searchTool, name: 'query_operation_status', description: "the transport's own" };
    const transport = new FakeTransport([shadowed, ownQuery, lookupTool, searchTool], () => ({ ok: true }));
    const executor = new Executor({
      transport,
      config: RetryConfigSchema.parse({ name: 'test' }),
      clock,
      rng: new Rng(7),
      history: new History(clock),
      ids: new IdSource(),
      startMs: 0,
    });
    expect(executor.tools.map((t) => t.name)).toEqual(['search', 'lookup', 'search', 'query_operation_status']);
    expect(executor.tools.at(-1)?.description).not.toBe("the transport's own");
    const run = await clock.run(() => executor.call('search', { id: 'x' }));
    // The last `search` wants a query: an id is refused; the first (lookup's schema) would have sent it.
    expect(run.kind === 'settled' && run.value).toMatchObject({
      kind: 'error',
      error: { error_type: 'invalid_argument' },
    });
    const query = await clock.run(() => executor.call('query_operation_status', { operation_id: 'op-9' }));
    expect(query.kind === 'settled' && query.value).toMatchObject({
      kind: 'error',
      error: { error_type: 'not_found' },
    });
    expect(transport.sent).toEqual([]);
  });

  it('records its events with their keys in the order record gave them', async () => {
    const t = setup({ maxAttempts: 2 }, script([new HttpError(503, 'busy'), { id: 'o1' }]));
    await t.call('create_order', order);
    const g = setup({ maxAttempts: 2 }, script([new HttpError(503, 'busy')]));
    await g.call('search', { q: 'x' });
    const keysOf = (events: readonly object[]): string[][] => events.map((e) => Object.keys(e));
    expect(keysOf(t.of('operation'))).toEqual([
      ['seq', 't', 'type', 'op', 'call', 'tool', 'state', 'idempotencyKey', 'businessKey'],
      ['seq', 't', 'type', 'op', 'call', 'tool', 'state', 'idempotencyKey', 'businessKey'],
    ]);
    expect(t.of('operation').map((e) => e.state)).toEqual(['recorded', 'succeeded']);
    expect(keysOf([...t.of('retry_wait'), ...g.of('retry_wait')])).toEqual(
      Array(2).fill(['seq', 't', 'type', 'call', 'attempt', 'ms', 'reason']),
    );
    expect(keysOf(g.of('give_up'))).toEqual([['seq', 't', 'type', 'call', 'reason', 'error']]);
    const noKey = setup({ idempotency: { keys: 'none', writes: 'always' } }, script([{ id: 'o1' }]));
    await noKey.call('send_email', { to: 'a', body: 'b' });
    expect(keysOf(noKey.of('operation'))).toEqual(Array(2).fill(['seq', 't', 'type', 'op', 'call', 'tool', 'state']));
  });

  it('writes the operation record before the first send', async () => {
    let store: OperationStore | undefined;
    const seen: unknown[] = [];
    const t = setup({}, async (request) => {
      seen.push(await store?.list());
      return request.purpose === 'call' ? { id: 'o1' } : undefined;
    });
    store = t.store;
    await t.call('create_order', order);
    const key = t.transport.sent[0]?.idempotencyKey;
    expect(seen).toEqual([
      [
        {
          op: 'op-1',
          call: 'call-1',
          tool: 'create_order',
          input: order,
          idempotencyKey: key,
          businessKey: 'ref-1',
          state: 'pending',
          createdAt: 0,
          updatedAt: 0,
        },
      ],
    ]);
    const [recorded, attempt] = [t.of('operation')[0], t.of('attempt')[0]];
    expect(recorded).toMatchObject({ state: 'recorded', op: 'op-1', idempotencyKey: key, businessKey: 'ref-1' });
    expect(recorded!.seq).toBeLessThan(attempt!.seq);
    expect((await t.store.get('op-1'))?.state).toBe('succeeded');
  });
});

/** Answers in turn across calls (`script` answers by attempt number within a call). */
const inTurn = (steps: readonly unknown[]): Reply => {
  let i = 0;
  return () => {
    const step = steps[Math.min(i++, steps.length - 1)];
    if (step instanceof Error) throw step;
    return step;
  };
};

describe('Executor: Retry-After, deadline and budget', () => {
  const limited = (retryAfter: string) => () => {
    throw new HttpError(429, 'Too Many Requests', undefined, { 'Retry-After': retryAfter });
  };

  it('honours a Retry-After inside the deadline', async () => {
    const t = setup({}, script([new HttpError(429, 'slow down', undefined, { 'retry-after': '2' }), { ok: 1 }]));
    expect(await t.call('search', { q: 'x' })).toMatchObject({ kind: 'ok', attempts: 2 });
    expect(t.of('retry_wait')).toMatchObject([{ ms: 2_000, reason: 'retry_after' }]);
  });

  it('gives up without sleeping when Retry-After is longer than the remaining deadline', async () => {
    const t = setup({ deadlineMs: 5_000 }, limited('30'));
    const result = await t.call('search', { q: 'x' });
    expect(t.of('give_up')).toMatchObject([{ reason: 'retry_after_exceeds_deadline' }]);
    expect(t.of('retry_wait')).toEqual([]);
    expect(t.clock.now()).toBe(0);
    expect(result.kind === 'error' && result.error).toMatchObject({
      error_type: 'rate_limit',
      retry_after_ms: 30_000,
      next_actions: ['retry_later'],
    });
  });

  it('gives up when Retry-After exceeds retryAfter.maxMs even with no deadline', async () => {
    const t = setup({ deadlineMs: null, retryAfter: { mode: 'honour', maxMs: 10_000 } }, limited('20'));
    await t.call('search', { q: 'x' });
    expect(t.of('give_up')).toMatchObject([{ reason: 'retry_after_exceeds_deadline' }]);
    expect(t.transport.sent).toHaveLength(1);
  });

  it('holds the next call of the same tool until a Retry-After the last call gave up on has passed (R9)', async () => {
    const t = setup(
      { maxAttempts: 1 },
      inTurn([new HttpError(429, 'slow down', undefined, { 'retry-after': '3' }), { ok: 1 }]),
    );
    expect(await t.call('search', { q: 'x' })).toMatchObject({ kind: 'error' });
    expect(await t.call('search', { q: 'y' })).toMatchObject({ kind: 'ok', attempts: 1 });
    expect(t.of('retry_wait')).toMatchObject([{ call: 'call-2', attempt: 0, ms: 3_000, reason: 'retry_after' }]);
    expect(t.clock.now()).toBe(3_000);
  });

  it('does not send the next call at all when the held wait would cross the deadline', async () => {
    const t = setup(
      { maxAttempts: 1, deadlineMs: 5_000 },
      inTurn([new HttpError(429, 'slow down', undefined, { 'retry-after': '30' }), { ok: 1 }]),
    );
    await t.call('search', { q: 'x' });
    const second = await t.call('search', { q: 'y' });
    expect(t.transport.sent).toHaveLength(1);
    expect(t.of('give_up')).toMatchObject([
      { call: 'call-1' },
      { call: 'call-2', reason: 'retry_after_exceeds_deadline' },
    ]);
    expect(second.kind === 'error' && second.error).toMatchObject({
      error_type: 'rate_limit',
      next_actions: ['retry_later'],
    });
  });

  it('does not send the next call when the held wait is longer than retryAfter.maxMs, even with no deadline', async () => {
    const t = setup(
      { maxAttempts: 1, deadlineMs: null, retryAfter: { mode: 'honour', maxMs: 10_000 } },
      inTurn([new HttpError(429, 'slow down', undefined, { 'retry-after': '20' }), { ok: 1 }]),
    );
    await t.call('search', { q: 'x' });
    await t.call('search', { q: 'y' });
    expect(t.transport.sent).toHaveLength(1);
    expect(t.of('give_up').map((g) => `${g.call} ${g.reason}`)).toEqual([
      'call-1 max_attempts',
      'call-2 retry_after_exceeds_deadline',
    ]);
    expect(t.clock.now()).toBe(0);
  });

  it('does not hold another tool, nor anything under mode ignore', async () => {
    const t = setup(
      { maxAttempts: 1 },
      inTurn([new HttpError(429, 'slow down', undefined, { 'retry-after': '3' }), { ok: 1 }, { ok: 2 }]),
    );
    await t.call('search', { q: 'x' });
    expect(await t.call('lookup', { id: 'o-1' })).toMatchObject({ kind: 'ok' });
    expect(t.clock.now()).toBe(0);
    const ignoring = setup(
      { maxAttempts: 1, retryAfter: { mode: 'ignore', maxMs: 60_000 } },
      inTurn([new HttpError(429, 'slow down', undefined, { 'retry-after': '3' }), { ok: 1 }]),
    );
    await ignoring.call('search', { q: 'x' });
    expect(await ignoring.call('search', { q: 'y' })).toMatchObject({ kind: 'ok' });
    expect(ignoring.of('retry_wait')).toEqual([]);
  });

  it('ignores the hint under mode ignore', async () => {
    const t = setup(
      { retryAfter: { mode: 'ignore', maxMs: 1_000 } },
      script([new HttpError(429, 'slow', undefined, { 'Retry-After': '30' }), { ok: 1 }]),
    );
    expect(await t.call('search', { q: 'x' })).toMatchObject({ kind: 'ok' });
    expect(t.of('retry_wait')).toMatchObject([{ ms: 100, reason: 'backoff' }]);
  });

  it('gives up when the backoff would cross the deadline, and cuts the attempt timeout at the deadline', async () => {
    const t = setup(
      { deadlineMs: 1_500, perCallTimeoutMs: 1_000, backoff: { kind: 'fixed', delayMs: 600 } },
      script([HANG]),
    );
    await t.call('search', { q: 'x' });
    expect(t.of('give_up')).toMatchObject([{ reason: 'deadline' }]);
    expect(t.transport.sent).toHaveLength(1);

    const cut = setup(
      { deadlineMs: 1_500, perCallTimeoutMs: 1_000, backoff: { kind: 'fixed', delayMs: 100 } },
      script([HANG]),
    );
    await cut.call('search', { q: 'x' });
    // 1000 ms, wait 100, then the second attempt only gets the 400 ms left.
    expect(cut.clock.now()).toBe(1_500);
    expect(cut.of('give_up')).toMatchObject([{ reason: 'deadline' }]);
  });

  it('shares one retry budget across tools and across executors', async () => {
    const budget = new RetryBudget(1);
    const a = setup({}, script([new HttpError(503, 'busy'), { ok: 1 }]), { budget });
    expect(await a.call('search', { q: 'x' })).toMatchObject({ kind: 'ok', attempts: 2 });
    expect(await a.call('lookup', { id: '1' })).toMatchObject({ kind: 'error', attempts: 1 });
    expect(a.of('give_up')).toMatchObject([{ call: 'call-2', reason: 'budget' }]);

    const b = setup({}, script([new HttpError(503, 'busy'), { ok: 1 }]), { budget });
    expect(await b.call('search', { q: 'x' })).toMatchObject({ kind: 'error', attempts: 1 });
    expect(b.of('give_up')).toMatchObject([{ reason: 'budget' }]);
    expect(budget.remaining).toBe(0);
  });

  it('stops at maxAttempts', async () => {
    const t = setup({ maxAttempts: 2 }, script([new HttpError(503, 'busy')]));
    expect(await t.call('search', { q: 'x' })).toMatchObject({ kind: 'error', attempts: 2 });
    expect(t.of('give_up')).toMatchObject([{ reason: 'max_attempts' }]);
  });
});

describe('Executor: unknown outcomes and reconciliation', () => {
  const statusReply =
    (status: unknown): Reply =>
    (request, signal) =>
      request.purpose === 'status' ? status : hang(signal);

  it('reconciles a timed-out write: succeeded -> ok with the service value', async () => {
    const t = setup({ maxAttempts: 2 }, statusReply({ state: 'succeeded', value: { id: 'o1' } }));
    const result = await t.call('create_order', order);
    expect(result).toEqual({ kind: 'ok', call: 'call-1', tool: 'create_order', attempts: 2, value: { id: 'o1' } });
    const [query] = t.transport.calls('status');
    const key = t.transport.sent[0]?.idempotencyKey;
    expect(query).toMatchObject({ tool: 'create_order', attempt: 1, idempotencyKey: key });
    expect(query?.input).toEqual({ op: 'op-1', input: order, idempotencyKey: key, businessKey: 'ref-1' });
    expect(t.of('reconcile')).toMatchObject([{ op: 'op-1', found: 'succeeded' }]);
    expect(t.of('operation').map((e) => e.state)).toEqual(['recorded', 'unknown', 'succeeded']);
    expect(t.of('attempt').map((e) => e.purpose)).toEqual(['call', 'call', 'status']);
  });

  it('reconciles not_found as still unknown, with the R27 fields', async () => {
    const t = setup({ maxAttempts: 1 }, statusReply({ state: 'not_found' }));
    const result = await t.call('create_order', order);
    expect(result.kind).toBe('unknown');
    expect(result.kind === 'unknown' && result.unknown).toMatchObject({
      operation_id: 'op-1',
      status: 'unknown',
      error_code: 'timeout',
      execution_confirmed: false,
      retry_allowed: true,
      next_action: 'query_operation_status',
    });
    expect(t.of('reconcile')).toMatchObject([{ found: 'not_found' }]);
    expect((await t.store.get('op-1'))?.state).toBe('unknown');
    expect(t.of('outcome')).toMatchObject([{ result: 'unknown', op: 'op-1', error: { kind: 'timeout' } }]);
  });

  it('reconciles failed as an error', async () => {
    const t = setup(
      { maxAttempts: 1 },
      statusReply({ state: 'failed', status: 422, message: 'sku A is discontinued' }),
    );
    const result = await t.call('create_order', order);
    expect(result.kind === 'error' && result.error).toMatchObject({
      error_type: 'invalid_argument',
      message: 'sku A is discontinued',
    });
    expect((await t.store.get('op-1'))?.state).toBe('failed');
  });

  it('asks the user when the tool cannot be queried and the server ignores keys', async () => {
    const t = setup({}, script([systemError('ECONNRESET', 'socket hang up')]));
    const result = await t.call('send_email', { to: 'a@b', body: 'hi' });
    expect(t.transport.sent).toHaveLength(1);
    expect(result.kind === 'unknown' && result.unknown).toMatchObject({
      error_code: 'network',
      retry_allowed: false,
      next_action: 'ask_user',
    });
  });

  it('reports the last error plainly without operation records (the naive runtime)', async () => {
    const t = setup({ operationRecords: false, maxAttempts: 1 }, statusReply({ state: 'succeeded', value: 1 }));
    const result = await t.call('create_order', order);
    expect(result.kind === 'error' && result.error).toMatchObject({ error_type: 'timeout' });
    expect(t.transport.calls('status')).toEqual([]);
    expect(t.of('operation')).toEqual([]);
  });

  it('does not make a definite refusal unknown', async () => {
    const t = setup({}, script([new HttpError(403, 'no')]));
    expect(await t.call('create_order', order)).toMatchObject({ kind: 'error' });
    expect((await t.store.get('op-1'))?.state).toBe('failed');
  });

  it('query_operation_status reads the record and asks the service', async () => {
    let status: unknown = { state: 'pending' };
    const t = setup({ maxAttempts: 1 }, (request, signal) => (request.purpose === 'status' ? status : hang(signal)));
    expect((await t.call('create_order', order)).kind).toBe('unknown');
    status = { state: 'succeeded', value: { id: 'o1' } };
    const result = await t.call('query_operation_status', { operation_id: 'op-1' });
    expect(result).toEqual({
      kind: 'ok',
      call: 'call-2',
      tool: 'query_operation_status',
      attempts: 1,
      value: { operation_id: 'op-1', status: 'succeeded', value: { id: 'o1' } },
    });
    expect((await t.store.get('op-1'))?.state).toBe('succeeded');
    const again = await t.call('query_operation_status', { operation_id: 'op-1' });
    expect(again).toMatchObject({ kind: 'ok', attempts: 0 });
    expect(t.transport.calls('status')).toHaveLength(2);

    const missing = await t.call('query_operation_status', { operation_id: 'op-9' });
    expect(missing.kind === 'error' && missing.error).toMatchObject({ error_type: 'not_found' });
    expect(t.executor.tools.map((x) => x.name)).toContain('query_operation_status');
  });

  it('resubmitting an unknown operation with the same business key reuses its op and key', async () => {
    let n = 0;
    const t = setup({ maxAttempts: 1, reconcile: false }, (_request, signal) =>
      ++n === 1 ? hang(signal) : { id: 'o1' },
    );
    expect((await t.call('create_order', order)).kind).toBe('unknown');
    expect(await t.call('create_order', order)).toMatchObject({ kind: 'ok' });
    const [first, second] = t.transport.sent;
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(await t.store.list()).toMatchObject([{ op: 'op-1', state: 'succeeded' }]);
    expect(await t.call('create_order', { ...order, qty: 2 })).toMatchObject({ kind: 'ok' });
    expect((await t.store.list()).map((r) => r.op)).toEqual(['op-1', 'op-2']);
  });

  it('treats a corrupt answer to a write as unknown', async () => {
    const t = setup({ reconcile: false }, script([new SyntaxError('Unexpected end of JSON input')]));
    const result = await t.call('create_order', order);
    expect(t.transport.sent).toHaveLength(1);
    expect(result.kind === 'unknown' && result.unknown.error_code).toBe('unknown');
  });
});

describe('Executor: audit', () => {
  it('logs one redacted entry per call with the raw error and its stack', async () => {
    const audit = new AuditLog();
    const t = setup(
      { maxAttempts: 2 },
      script([new TimeoutError(5), new HttpError(401, 'bad key sk-abcdefghijkl1234 for hunter2')]),
      {
        audit,
        secrets: ['hunter2'],
      },
    );
    await t.call('search', { q: 'x' });
    expect(audit.entries).toHaveLength(1);
    const [entry] = audit.entries;
    expect(entry).toMatchObject({
      call: 'call-1',
      tool: 'search',
      errorKind: 'permission_denied',
      retries: 1,
      status: 'error',
      latencyMs: 100,
    });
    expect(entry?.rawError?.message).toBe('bad key [REDACTED] for [REDACTED]');
    expect(entry?.rawError?.stack).toContain('HttpError');
  });
});
