import { describe, expect, it } from 'vitest';
import { HttpError, Rng, VirtualClock } from '../../core/index.js';
import type { Fault } from '../fault.js';
import type { FaultPlan } from '../plan.js';
import { Wire } from '../Wire.js';
import { faultedService } from './faultedService.testkit.js';
import type { HttpRequestData } from './HttpRoute.js';

const START = Date.parse('2025-01-01T00:00:00Z');
const SHOP = 'https://api.shop.test';
const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 900 };

function engine(plan: FaultPlan, seed = 1) {
  const clock = new VirtualClock(START);
  return { clock, ...faultedService(clock, plan, SHOP, { seed }) };
}

const post = (key?: string): HttpRequestData => ({
  method: 'POST',
  url: `${SHOP}/orders`,
  headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
  body: JSON.stringify(ORDER),
});

const never = new AbortController().signal;

describe('HttpFaults', () => {
  it('answers a refusal exactly as the in-process wire throws it: status, headers and body', async () => {
    const api = {
      headers: { 'Retry-After': '4', 'x-should-retry': 'false' },
      body: { error: { type: 'api_error', message: 'Upstream is down.' } },
    };
    const faults: Fault[] = [
      { kind: 'rate_limit', retryAfter: 7 },
      { kind: 'quota_exceeded' },
      { kind: 'unavailable', status: 529 },
      { kind: 'permission_denied', status: 403 },
      // A plan's own headers and body: both transports carry them alike.
      { kind: 'rate_limit', retryAfter: 7, ...api },
      { kind: 'unavailable', status: 503, ...api },
      { kind: 'server_error', ...api },
      { kind: 'partial_write', lostAs: 'unavailable', ...api },
      { kind: 'not_found', ...api },
    ];
    for (const fault of faults) {
      const http = engine([{ match: {}, fault }]);
      const answer = await http.faults.exchange(post(), never);

      const inProcess = engine([]);
      const wire = new Wire({
        world: inProcess.world,
        plan: [{ match: {}, fault }],
        clock: inProcess.clock,
        rng: new Rng(1),
        history: inProcess.history,
        startMs: START,
      });
      const thrown = await wire
        .send({ request: 'r1', tool: 'create_order', purpose: 'call', input: ORDER, call: 'c1', attempt: 1 })
        .catch((e: unknown) => e);
      if (!(thrown instanceof HttpError)) throw new Error('expected an HttpError');
      expect(answer).toMatchObject({
        kind: 'respond',
        status: thrown.status,
        body: JSON.stringify(thrown.body),
        headers: expect.objectContaining(thrown.headers) as unknown,
      });
      if ('headers' in fault)
        expect(answer).toMatchObject({
          body: JSON.stringify(api.body),
          headers: { 'retry-after': '4', 'x-should-retry': 'false', 'content-type': 'application/json' },
        });
    }
  });

  it('takes nothing it has no route for, and records nothing for it', async () => {
    const { faults, history } = engine([{ match: {}, fault: { kind: 'timeout' } }]);
    expect(await faults.exchange({ ...post(), url: 'https://elsewhere.test/orders' }, never)).toBeUndefined();
    expect(await faults.exchange({ ...post(), method: 'DELETE' }, never)).toBeUndefined();
    expect(faults.handles('POST', `${SHOP}/orders`)).toBe(true);
    expect(history.events).toEqual([]);
  });

  it('draws probabilities from its rng: the same seed gives the same history', async () => {
    const plan: FaultPlan = [{ match: { probability: 0.5 }, fault: { kind: 'unavailable', status: 503 } }];
    const statuses = async (seed: number) => {
      const { faults } = engine(plan, seed);
      const out: number[] = [];
      for (let i = 0; i < 12; i++) {
        const a = await faults.exchange(post(`k${i}`), never);
        out.push(a?.kind === 'respond' ? a.status : 0);
      }
      return out;
    };
    const first = await statuses(4);
    expect(first).toContain(503);
    expect(first).toContain(201);
    expect(await statuses(4)).toEqual(first);
  });

  it('answers status queries only under status rules, as the wire does', async () => {
    const { faults, clock } = engine([
      { match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'network' } },
    ]);
    const run = await clock.run(async () => {
      const first = await faults.exchange(post('k1'), never);
      const status = await faults.exchange(
        {
          method: 'GET',
          url: `${SHOP}/orders/status?clientReference=ref-1`,
          headers: { 'idempotency-key': 'k1' },
          body: '',
        },
        never,
      );
      return [first?.kind, status?.kind === 'respond' ? JSON.parse(status.body) : status];
    });
    expect(run.kind === 'settled' && run.value).toEqual([
      'network',
      { state: 'succeeded', value: { orderId: 'ord-1', ...ORDER, status: 'created' } },
    ]);
  });

  it('records an answer still on its way as lost when the trial closes', async () => {
    const { faults, clock, history } = engine([{ match: {}, fault: { kind: 'latency', ms: 90_000 } }]);
    const run = await clock.run(async () => {
      void faults.exchange(post('k1'), never);
      await clock.sleep(10_000);
    });
    expect(run.kind).toBe('settled');
    faults.close();
    expect(history.events.map((e) => e.type)).toEqual(['http_request', 'fault', 'delivery', 'effect', 'response']);
    expect(history.events[4]).toMatchObject({
      t: 10_000,
      result: 'lost',
      message: 'answer still on its way: no answer by the end of the trial (10000 ms)',
    });
  });
});
