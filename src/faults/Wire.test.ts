import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsOf, FaultlineError, HttpError, Rng, TimeoutError, type WireRequest } from '../core/index.js';
import type { ToolSpec } from '../world/tool.js';
import type { Fault } from './fault.js';
import type { FaultPlan } from './plan.js';
import { settle, START, trial } from './testService.js';
import { Wire } from './Wire.js';

const always = (fault: Fault): FaultPlan => [{ match: {}, fault }];

/** Sends one increment under `fault` and returns what the caller saw, the trace and the counter. */
async function once(fault: Fault) {
  const t = trial(always(fault));
  const run = await t.clock.run(() => settle(t.wire.send(t.request())));
  if (run.kind !== 'settled') throw new Error(`run ended ${run.kind}`);
  return { ...t, outcome: run.value };
}

const errorOf = (outcome: Awaited<ReturnType<typeof settle>>): unknown => {
  if (outcome.ok) throw new Error('expected a rejection');
  return outcome.error;
};

describe('Wire without faults', () => {
  it('delivers once, records delivery, effect and response, and answers with the tool result', async () => {
    const t = trial([]);
    const run = await t.clock.run(() => t.wire.send(t.request({ idempotencyKey: 'k-1' })));
    expect(run).toEqual({ kind: 'settled', value: { count: 1 }, at: START });
    expect(t.history.events).toEqual([
      {
        seq: 0,
        t: 0,
        type: 'delivery',
        request: 'req-1',
        tool: 'increment',
        copy: 0,
        call: 'call-1',
        attempt: 1,
        idempotencyKey: 'k-1',
      },
      {
        seq: 1,
        t: 0,
        type: 'effect',
        request: 'req-1',
        service: 'counter',
        effect: 'counter.incremented',
        key: 'by-1',
        ledgerSeq: 0,
        call: 'call-1',
        attempt: 1,
        idempotencyKey: 'k-1',
      },
      {
        seq: 2,
        t: 0,
        type: 'response',
        request: 'req-1',
        tool: 'increment',
        call: 'call-1',
        attempt: 1,
        result: 'ok',
        status: 200,
      },
    ]);
  });

  // An empty plan skips building each request's facts (and the call numbering only they read): a plan whose one rule
  // never matches takes the whole way, so what both record and answer must be the same.
  test.prop([
    fc.array(
      fc.record({
        tool: fc.constantFrom('increment', 'read'),
        call: fc.nat({ max: 3 }),
        attempt: fc.integer({ min: 1, max: 3 }),
        by: fc.integer({ min: 1, max: 5 }),
      }),
      { maxLength: 8 },
    ),
  ])('records and answers as a plan whose only rule never matches', async (requests) => {
    const sent = async (plan: FaultPlan) => {
      const t = trial(plan);
      const run = await t.clock.run(async () => {
        const answers = [];
        for (const [i, r] of requests.entries()) {
          answers.push(
            await settle(
              t.wire.send(
                t.request({
                  request: `req-${i}`,
                  tool: r.tool,
                  call: `call-${r.call}`,
                  attempt: r.attempt,
                  input: r.tool === 'increment' ? { by: r.by } : {},
                }),
              ),
            ),
          );
        }
        return answers;
      });
      return { run, events: t.history.events };
    };
    expect(await sent([])).toEqual(await sent([{ match: { tool: 'nobody' }, fault: { kind: 'timeout' } }]));
  });

  it('exposes contracts only, never the business logic', () => {
    const t = trial([]);
    expect(t.wire.tools.map((c) => c.name)).toEqual(['increment', 'read']);
    expect(t.wire.tools.every((c) => !('run' in c) && !('status' in c))).toBe(true);
  });

  it('answers the result as it crossed the wire: JSON, detached from live service state', async () => {
    const t = trial([]);
    const live = { at: new Date(START), tags: ['a'] };
    const tool: ToolSpec = {
      name: 'peek',
      description: '',
      risk: 'read',
      input: z.object({}),
      honoursIdempotencyKeys: true,
      canQueryStatus: false,
      run: () => live,
    };
    const wire = new Wire({
      world: t.world,
      tools: [tool],
      plan: [],
      clock: t.clock,
      rng: new Rng(1),
      history: t.history,
      startMs: START,
    });
    const run = await t.clock.run(() => wire.send(t.request({ tool: 'peek', input: {} })));
    const value = run.kind === 'settled' ? (run.value as { at: unknown; tags: string[] }) : undefined;
    expect(value).toEqual({ at: '2025-01-01T00:00:00.000Z', tags: ['a'] });
    value?.tags.push('mutated');
    expect(live.tags).toEqual(['a']);
  });

  it('rejects an unknown tool with 404 before any fault is chosen', async () => {
    const t = trial(always({ kind: 'timeout' }));
    const run = await t.clock.run(() => settle(t.wire.send(t.request({ tool: 'nope' }))));
    const error = run.kind === 'settled' ? errorOf(run.value) : undefined;
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 404,
      body: { error: { type: 'not_found_error', message: 'Unknown tool "nope"' } },
    });
    expect(t.trace()).toEqual(['response:error:404']);
  });

  it('validates input at delivery: 400 with the issues, nothing committed, the fault still consumed', async () => {
    const t = trial([{ match: {}, fault: { kind: 'latency', ms: 100 }, times: 1 }]);
    const run = await t.clock.run(() => settle(t.wire.send(t.request({ input: { by: 'two' } }))));
    const error = run.kind === 'settled' ? errorOf(run.value) : undefined;
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid request: by: Invalid input: expected number, received string',
      body: {
        error: {
          type: 'invalid_request_error',
          issues: [{ path: 'by', message: 'Invalid input: expected number, received string' }],
        },
      },
    });
    expect(t.trace()).toEqual(['fault:latency#0', 'delivery:0', 'response:error:400']);
    expect(t.world.ledger.length).toBe(0);
  });

  it('turns a service crash into a 500, as an HTTP server would', async () => {
    const t = trial([]);
    const [tool] = t.world.tools;
    const crashing = new Wire({
      world: t.world,
      tools: [
        {
          ...tool!,
          run: () => {
            throw new TypeError('x is undefined');
          },
        },
      ],
      plan: [],
      clock: t.clock,
      rng: new Rng(1),
      history: t.history,
      startMs: START,
    });
    const run = await t.clock.run(() => settle(crashing.send(t.request())));
    const error = run.kind === 'settled' ? errorOf(run.value) : undefined;
    expect(error).toMatchObject({
      status: 500,
      message: 'Internal Server Error',
      body: { error: { type: 'server_error', message: 'x is undefined' } },
    });
  });
});

describe('Wire status queries', () => {
  it('calls the tool status function with the operation ref', async () => {
    const t = trial([]);
    const run = await t.clock.run(async () => {
      await t.wire.send(t.request({ idempotencyKey: 'k-9', input: { by: 5 } }));
      return t.wire.send(
        t.request({
          purpose: 'status',
          call: 'call-1',
          attempt: 2,
          input: { op: 'op-1', idempotencyKey: 'k-9', input: { by: 5 } },
        }),
      );
    });
    expect(run).toMatchObject({ kind: 'settled', value: { state: 'succeeded', value: { by: 5 } } });
  });

  it('answers 501 for a tool without a status function', async () => {
    const t = trial([]);
    const run = await t.clock.run(() =>
      settle(t.wire.send(t.request({ tool: 'read', purpose: 'status', input: { op: 'op-1', input: {} } }))),
    );
    const error = run.kind === 'settled' ? errorOf(run.value) : undefined;
    expect(error).toMatchObject({ status: 501, message: 'Tool "read" does not answer status queries' });
  });
});

describe('Wire fault kinds', () => {
  it('timeout: not delivered; pending until the signal aborts, then rejects with its reason', async () => {
    const t = trial(always({ kind: 'timeout' }));
    const ac = new AbortController();
    const reason = new TimeoutError(5_000);
    const run = await t.clock.run(async () => {
      const sent = settle(t.wire.send(t.request(), ac.signal));
      t.clock.setTimer(5_000, () => ac.abort(reason));
      return sent;
    });
    expect(run).toEqual({ kind: 'settled', value: { ok: false, error: reason }, at: START + 5_000 });
    expect(t.trace()).toEqual(['fault:timeout#0', 'response:lost']);
    expect(t.counter.count()).toBe(0);
    expect(t.clock.pending).toBe(0);
  });

  it('timeout: without a signal the request never settles', async () => {
    const t = trial(always({ kind: 'timeout' }));
    expect(await t.clock.run(() => t.wire.send(t.request()))).toEqual({ kind: 'hung', at: START });
  });

  it('latency: answers normally, ms later', async () => {
    const t = trial(always({ kind: 'latency', ms: 1_500 }));
    expect(await t.clock.run(() => t.wire.send(t.request()))).toEqual({
      kind: 'settled',
      value: { count: 1 },
      at: START + 1_500,
    });
    expect(t.trace()).toEqual(['fault:latency#0', 'delivery:0', 'effect:req-1', 'response:ok:200']);
    expect(t.history.events.at(-1)?.t).toBe(1_500);
  });

  it('latency: the service commits at once; an abort during the wait loses the answer and leaves no timer', async () => {
    const t = trial(always({ kind: 'latency', ms: 10_000 }));
    const ac = new AbortController();
    const run = await t.clock.run(async () => {
      const sent = settle(t.wire.send(t.request(), ac.signal));
      t.clock.setTimer(100, () => ac.abort('gave up'));
      return sent;
    });
    expect(run).toEqual({ kind: 'settled', value: { ok: false, error: 'gave up' }, at: START + 100 });
    expect(t.trace()).toEqual(['fault:latency#0', 'delivery:0', 'effect:req-1', 'response:lost']);
    expect(t.counter.count()).toBe(1);
    expect(t.clock.pending).toBe(0);
  });

  it.each([
    ['ECONNRESET', 'socket hang up'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:443'],
    ['EPIPE', 'write EPIPE'],
  ] as const)('network %s: not delivered; a Node system error', async (code, message) => {
    const { outcome, trace, counter } = await once({ kind: 'network', code });
    const error = errorOf(outcome);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code, message });
    expect(trace()).toEqual(['fault:network#0', 'response:error']);
    expect(counter.count()).toBe(0);
  });

  it('rate_limit: not delivered; 429 with the rate-limit body and a delta-seconds Retry-After', async () => {
    const { outcome, trace, counter } = await once({ kind: 'rate_limit', retryAfter: 20 });
    const error = errorOf(outcome);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 429,
      message: 'Rate limit reached for requests. Please try again in 20s.',
      headers: { 'retry-after': '20' },
      body: {
        error: {
          type: 'requests',
          code: 'rate_limit_exceeded',
          message: 'Rate limit reached for requests. Please try again in 20s.',
        },
      },
    });
    expect(trace()).toEqual(['fault:rate_limit#0', 'response:error:429']);
    expect(counter.count()).toBe(0);
  });

  it('rate_limit: Retry-After as an HTTP-date equals the answer time + N s, to the second', async () => {
    const t = trial([
      { match: { from: 2_500 }, fault: { kind: 'rate_limit', retryAfter: 120, retryAfterAs: 'http-date' } },
    ]);
    const run = await t.clock.run(async () => {
      await t.clock.sleep(2_500);
      return settle(t.wire.send(t.request()));
    });
    const error = run.kind === 'settled' ? errorOf(run.value) : undefined;
    expect((error as HttpError).headers).toEqual({ 'retry-after': 'Wed, 01 Jan 2025 00:02:02 GMT' });
    expect(Date.parse((error as HttpError).headers['retry-after']!)).toBe(START + 122_000);
  });

  it('rate_limit: a string Retry-After is sent verbatim; none sends no header', async () => {
    expect(errorOf((await once({ kind: 'rate_limit', retryAfter: 'soon-ish' })).outcome)).toMatchObject({
      headers: { 'retry-after': 'soon-ish' },
    });
    const bare = errorOf((await once({ kind: 'rate_limit' })).outcome) as HttpError;
    expect(bare.headers).toEqual({});
    expect(bare.message).toBe('Rate limit reached for requests.');
  });

  it('quota_exceeded: not delivered; 429 insufficient_quota without Retry-After', async () => {
    const { outcome, counter } = await once({ kind: 'quota_exceeded' });
    const error = errorOf(outcome) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({});
    expect(error.body).toEqual({
      error: {
        type: 'insufficient_quota',
        code: 'insufficient_quota',
        message: 'You exceeded your current quota, please check your plan and billing details.',
      },
    });
    expect(counter.count()).toBe(0);
  });

  it.each([
    [
      500,
      'Internal Server Error',
      { error: { type: 'server_error', message: 'The server had an error while processing your request.' } },
    ],
    [502, 'Bad Gateway', '502 Bad Gateway'],
    [503, 'Service Unavailable', '503 Service Unavailable'],
    [504, 'Gateway Timeout', '504 Gateway Timeout'],
    [529, 'Overloaded', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
  ] as const)(
    'unavailable %i: not delivered; HttpError with the body that status carries',
    async (status, message, body) => {
      const { outcome, trace, counter } = await once({ kind: 'unavailable', status });
      const error = errorOf(outcome);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ status, message, body, headers: {} });
      expect(trace()).toEqual(['fault:unavailable#0', `response:error:${status}`]);
      expect(counter.count()).toBe(0);
    },
  );

  const apiBody = { error: { type: 'api_error', code: 'upstream_down', message: 'Try again later.' } };
  it.each([
    [{ kind: 'rate_limit', retryAfter: 5 }, 429],
    [{ kind: 'quota_exceeded' }, 429],
    [{ kind: 'unavailable', status: 503 }, 503],
    [{ kind: 'permission_denied', status: 401 }, 401],
    [{ kind: 'rejected' }, 422],
    [{ kind: 'not_found' }, 404],
    [{ kind: 'conflict' }, 409],
    [{ kind: 'server_error' }, 500],
    [{ kind: 'partial_write', lostAs: 'unavailable' }, 504],
  ] as const)('%j with headers and body: the HttpError carries them, the status unchanged', async (fault, status) => {
    const headers = { 'Retry-After': '9', 'x-should-retry': 'false', 'Stripe-Should-Retry': 'false' };
    const { outcome } = await once({ ...fault, headers, body: apiBody } as Fault);
    const error = errorOf(outcome) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    // Names lower-cased, so a plan's `Retry-After` replaces the default `retry-after` rather than doubling it.
    expect(error).toMatchObject({
      status,
      body: apiBody,
      headers: { 'retry-after': '9', 'x-should-retry': 'false', 'stripe-should-retry': 'false' },
    });
    expect(Object.keys(error.headers)).toHaveLength(3);
  });

  it('a fault without headers or body keeps its default answer; a string body is kept as text', async () => {
    expect(errorOf((await once({ kind: 'not_found', body: 'gone' })).outcome)).toMatchObject({
      status: 404,
      body: 'gone',
      headers: {},
    });
    expect(
      errorOf((await once({ kind: 'rate_limit', retryAfter: 2, headers: { 'x-ratelimit-remaining': '0' } })).outcome),
    ).toMatchObject({
      headers: { 'retry-after': '2', 'x-ratelimit-remaining': '0' },
      body: { error: { code: 'rate_limit_exceeded' } },
    });
  });

  it('partial_write timeout: committed, then no answer until abort', async () => {
    const t = trial(always({ kind: 'partial_write', lostAs: 'timeout' }));
    const ac = new AbortController();
    const run = await t.clock.run(async () => {
      const sent = settle(t.wire.send(t.request(), ac.signal));
      t.clock.setTimer(30_000, () => ac.abort('timed out'));
      return sent;
    });
    expect(run).toEqual({ kind: 'settled', value: { ok: false, error: 'timed out' }, at: START + 30_000 });
    expect(t.trace()).toEqual(['fault:partial_write#0', 'delivery:0', 'effect:req-1', 'response:lost']);
    expect(t.counter.count()).toBe(1);
    expect(t.clock.pending).toBe(0);
  });

  it('partial_write network: committed, then ECONNRESET socket hang up', async () => {
    const { outcome, trace, counter } = await once({ kind: 'partial_write', lostAs: 'network' });
    expect(errorOf(outcome)).toMatchObject({ code: 'ECONNRESET', message: 'socket hang up' });
    expect(trace()).toEqual(['fault:partial_write#0', 'delivery:0', 'effect:req-1', 'response:error']);
    expect(counter.count()).toBe(1);
  });

  it('partial_write unavailable: committed, then 504 Gateway Timeout', async () => {
    const { outcome, trace, counter } = await once({ kind: 'partial_write', lostAs: 'unavailable' });
    const error = errorOf(outcome);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 504, message: 'Gateway Timeout' });
    expect(trace()).toEqual(['fault:partial_write#0', 'delivery:0', 'effect:req-1', 'response:error:504']);
    expect(counter.count()).toBe(1);
  });

  it('duplicate: delivered `copies` times in sequence; the caller gets the first answer', async () => {
    const t = trial(always({ kind: 'duplicate', copies: 3 }), { processingMs: 100 });
    const run = await t.clock.run(() => t.wire.send(t.request({ idempotencyKey: 'k-1' })));
    expect(run).toEqual({ kind: 'settled', value: { count: 1 }, at: START + 300 });
    expect(t.trace()).toEqual([
      'fault:duplicate#0',
      'delivery:0',
      'effect:req-1',
      'delivery:1',
      'effect:req-1',
      'delivery:2',
      'effect:req-1',
      'response:ok:200',
    ]);
    expect(eventsOf(t.history.events, 'delivery').map((d) => d.idempotencyKey)).toEqual(['k-1', 'k-1', 'k-1']);
    expect(t.counter.count()).toBe(3);
    expect(t.counter.maxInFlight()).toBe(1);
  });

  it('duplicate concurrent: all copies at once, so the service sees them overlap', async () => {
    const t = trial(always({ kind: 'duplicate', copies: 2, concurrent: true }), { processingMs: 100 });
    const run = await t.clock.run(() => t.wire.send(t.request()));
    expect(run).toEqual({ kind: 'settled', value: { count: 1 }, at: START + 100 });
    expect(t.trace()).toEqual([
      'fault:duplicate#0',
      'delivery:0',
      'delivery:1',
      'effect:req-1',
      'effect:req-1',
      'response:ok:200',
    ]);
    expect(t.counter.maxInFlight()).toBe(2);
    expect(t.counter.count()).toBe(2);
  });

  it.each([
    [{ kind: 'permission_denied', status: 401 }, 401, 'authentication_error'],
    [{ kind: 'permission_denied', status: 403 }, 403, 'permission_error'],
    [{ kind: 'rejected' }, 422, 'unprocessable_entity_error'],
    [{ kind: 'not_found' }, 404, 'not_found_error'],
    [{ kind: 'conflict' }, 409, 'conflict_error'],
  ] as const)('%o: not delivered; %i with a body naming its type', async (fault, status, type) => {
    const { outcome, trace, counter } = await once(fault);
    const error = errorOf(outcome) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(status);
    expect(error.body).toEqual({ error: expect.objectContaining({ type, message: error.message }) });
    expect(trace()).toEqual([`fault:${fault.kind}#0`, `response:error:${status}`]);
    expect(counter.count()).toBe(0);
  });

  it('rejected: carries the plan message', async () => {
    expect(errorOf((await once({ kind: 'rejected', message: 'amount exceeds limit' })).outcome)).toMatchObject({
      status: 422,
      message: 'amount exceeds limit',
    });
  });

  it('malformed: committed, then a JSON SyntaxError', async () => {
    const { outcome, trace, counter } = await once({ kind: 'malformed' });
    const error = errorOf(outcome);
    expect(error).toBeInstanceOf(SyntaxError);
    expect(error).toMatchObject({ message: 'Unexpected end of JSON input' });
    expect(trace()).toEqual(['fault:malformed#0', 'delivery:0', 'effect:req-1', 'response:error']);
    expect(counter.count()).toBe(1);
  });

  it('malformed: an error answer keeps its status (only a 2xx body is parsed)', async () => {
    const t = trial(always({ kind: 'malformed' }));
    const run = await t.clock.run(() => settle(t.wire.send(t.request({ input: {} }))));
    const error = run.kind === 'settled' ? errorOf(run.value) : undefined;
    expect(error).toMatchObject({ status: 400 });
  });
});

describe('Wire aborts', () => {
  it('rejects at once when the signal is already aborted, without consuming a fault', async () => {
    const t = trial([{ match: {}, fault: { kind: 'timeout' }, times: 1 }]);
    const ac = new AbortController();
    ac.abort('early');
    const run = await t.clock.run(async () => [
      await settle(t.wire.send(t.request(), ac.signal)),
      await t.wire.send(t.request()),
    ]);
    expect(run).toMatchObject({ kind: 'hung' });
    expect(t.trace()).toEqual(['response:lost', 'fault:timeout#0', 'response:lost']);
  });

  it('an abort during a slow delivery stops the wait, not the service: the effect still commits (R18)', async () => {
    const t = trial([], { processingMs: 1_000 });
    const ac = new AbortController();
    const run = await t.clock.run(async () => {
      const sent = settle(t.wire.send(t.request(), ac.signal));
      t.clock.setTimer(200, () => ac.abort('impatient'));
      const seen = await sent;
      await t.clock.sleep(2_000);
      return seen;
    });
    expect(run).toEqual({ kind: 'settled', value: { ok: false, error: 'impatient' }, at: START + 2_200 });
    expect(t.history.events.map((e) => `${e.type}@${e.t}`)).toEqual(['delivery@0', 'response@200', 'effect@1000']);
    expect(t.counter.count()).toBe(1);
  });
});

describe('Wire construction', () => {
  it('rejects an invalid plan with FAULTLINE_PLAN_INVALID and the path of the problem', () => {
    const t = trial([]);
    const plan = [{ match: {}, fault: { kind: 'duplicate', copies: 1 } }] as unknown as FaultPlan;
    const make = () =>
      new Wire({ world: t.world, plan, clock: t.clock, rng: new Rng(1), history: t.history, startMs: START });
    expect(make).toThrow(FaultlineError);
    expect(make).toThrow('invalid fault plan: plan.0.fault.copies: Too small: expected number to be >=2');
  });
});

describe('Wire rule matching', () => {
  /** Sends each request in order and returns, per request, the rule that faulted it (or '-'). */
  async function faultedBy(plan: FaultPlan, requests: readonly Partial<WireRequest>[]) {
    const t = trial(plan);
    await t.clock.run(async () => {
      for (const over of requests) await settle(t.wire.send(t.request(over)));
    });
    const rules = new Map(eventsOf(t.history.events, 'fault').map((f) => [f.request, f.rule]));
    return { ids: requests.map((_, i) => rules.get(`req-${i + 1}`) ?? '-') };
  }
  const reject: Fault = { kind: 'conflict' };

  it('numbers calls per tool by distinct call id: retries and status queries keep their call number', async () => {
    const { ids } = await faultedBy(
      [{ match: { tool: 'increment', call: 2 }, fault: reject }],
      [
        { call: 'a' },
        { call: 'b' },
        { call: 'b', attempt: 2 },
        { call: 'x', tool: 'read', input: {} },
        { call: 'x', tool: 'read', input: {}, attempt: 2 },
        { call: 'b', purpose: 'status', attempt: 3, input: { op: 'op-b', input: { by: 1 } } },
        { call: 'c' },
      ],
    );
    expect(ids).toEqual(['-', 0, 0, '-', '-', '-', '-']);
  });

  it('matches purpose and attempt', async () => {
    const plan: FaultPlan = [
      { match: { purpose: 'status' }, fault: reject },
      { match: { attempt: 2 }, fault: reject },
    ];
    const { ids } = await faultedBy(plan, [
      {},
      { call: 'a', attempt: 2 },
      { call: 'a', purpose: 'status', attempt: 3, input: { op: 'op-a', input: {} } },
    ]);
    expect(ids).toEqual(['-', 1, 0]);
  });

  it('matches a time window on virtual ms since the trial start', async () => {
    const t = trial([{ match: { from: 1_000, to: 2_000 }, fault: reject }]);
    await t.clock.run(async () => {
      for (const at of [999, 1, 999, 1]) {
        await t.clock.sleep(at);
        await settle(t.wire.send(t.request()));
      }
    });
    expect(eventsOf(t.history.events, 'fault').map((f) => f.t)).toEqual([1_000, 1_999]);
  });

  it('times: a rule stops after its hits and the next matching rule takes over', async () => {
    const plan: FaultPlan = [
      { match: {}, fault: { kind: 'unavailable', status: 503 }, times: 2 },
      { match: {}, fault: reject, times: 1 },
    ];
    const { ids } = await faultedBy(plan, [{}, {}, {}, {}]);
    expect(ids).toEqual([0, 0, 1, '-']);
  });
});

describe('Wire determinism', () => {
  const plan: FaultPlan = [
    { match: { tool: 'increment', probability: 0.3 }, fault: { kind: 'partial_write', lostAs: 'network' } },
    { match: { probability: 0.2 }, fault: { kind: 'duplicate', copies: 2, concurrent: true } },
    { match: { attempt: 2, probability: 0.5 }, fault: { kind: 'latency', ms: 250 } },
    {
      match: { tool: 'read', probability: 0.4 },
      fault: { kind: 'rate_limit', retryAfter: 2, retryAfterAs: 'http-date' },
    },
  ];

  async function historyJson(seed: number): Promise<string> {
    const t = trial(plan, { seed, processingMs: 10 });
    await t.clock.run(async () => {
      for (let i = 0; i < 30; i++) {
        const tool = i % 3 === 0 ? 'read' : 'increment';
        const input = tool === 'read' ? {} : { by: i };
        await settle(t.wire.send(t.request({ tool, input, call: `call-${Math.floor(i / 2)}`, attempt: (i % 2) + 1 })));
      }
    });
    return JSON.stringify(t.history.events);
  }

  it('the same seed gives the same history, byte for byte; another seed another one', async () => {
    const a = await historyJson(42);
    expect(await historyJson(42)).toBe(a);
    expect(await historyJson(43)).not.toBe(a);
    expect(a).toContain('"type":"fault"');
  });

  it("adding a rule that does not match leaves a probability rule's draws unchanged", async () => {
    const coin: FaultPlan = [
      { match: { tool: 'increment', probability: 0.5 }, fault: { kind: 'unavailable', status: 503 } },
    ];
    const requests = Array.from({ length: 40 }, () => ({}));
    const alone = await faultedRequests(coin, requests);
    const withUnrelated = await faultedRequests(
      [
        { match: { tool: 'read', probability: 0.5 }, fault: { kind: 'timeout' } },
        { match: { attempt: 9 }, fault: { kind: 'timeout' } },
        ...coin,
      ],
      requests,
    );
    expect(withUnrelated).toEqual(alone);
    expect(alone.length).toBeGreaterThan(5);
    expect(alone.length).toBeLessThan(35);
  });

  async function faultedRequests(p: FaultPlan, requests: readonly object[]): Promise<string[]> {
    const t = trial(p, { seed: 9 });
    await t.clock.run(async () => {
      for (const over of requests) await settle(t.wire.send(t.request(over)));
    });
    return eventsOf(t.history.events, 'fault').map((f) => f.request);
  }
});
