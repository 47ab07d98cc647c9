import { describe, expect, it } from 'vitest';
import { Rng, TimeoutError } from '../core/index.js';
import { formatIssues } from '../core/zodIssues.js';
import { NetworkLatency, NetworkSchema, type Network } from './network.js';
import { settle, START, trial } from './testService.js';

const c = (ms: number) => ({ kind: 'constant', ms }) as const;
const net = (config: Network) => new NetworkLatency(NetworkSchema.parse(config), new Rng(1));

describe('NetworkLatency', () => {
  const config: Network = {
    latency: c(1),
    services: {
      payments: { latency: { request: c(2) }, routes: { 'POST /charges': { latency: { response: c(4) } } } },
    },
    tools: { charge_payment: { latency: { response: c(3) } } },
  };

  it('takes each leg from the most specific level that sets it: route, tool, service, then the default', () => {
    const n = net(config);
    expect(n.draw({ service: 'orders', tool: 'create_order' })).toEqual({ request: 1, response: 1 });
    expect(n.draw({ service: 'payments', tool: 'refund' })).toEqual({ request: 2, response: 1 });
    expect(n.draw({ service: 'payments', tool: 'charge_payment' })).toEqual({ request: 2, response: 3 });
    expect(n.draw({ service: 'payments', tool: 'charge_payment', route: 'POST /charges' })).toEqual({
      request: 2,
      response: 4,
    });
  });

  it('gives a request of no named service the tool and default levels, and leaves an unset leg instantaneous', () => {
    expect(net(config).draw({ tool: 'charge_payment' })).toEqual({ request: 1, response: 3 });
    expect(
      net({ services: { payments: { latency: c(5) } } }).draw({ service: 'orders', tool: 'create_order' }),
    ).toBeUndefined();
  });

  it('draws whole milliseconds, and a leg no level sets is 0', () => {
    const n = net({ tools: { charge_payment: { latency: { request: { kind: 'uniform', minMs: 0, maxMs: 10 } } } } });
    for (let i = 0; i < 50; i++) {
      const legs = n.draw({ service: 'payments', tool: 'charge_payment' })!;
      expect(Number.isInteger(legs.request)).toBe(true);
      expect(legs.response).toBe(0);
    }
    expect(n.drawLeg({ service: 'payments', tool: 'charge_payment' }, 'response')).toBe(0);
  });

  it('refuses a bad distribution or route key with the path inside `network`', () => {
    const problems = (input: unknown) => {
      const parsed = NetworkSchema.safeParse(input);
      return parsed.success ? [] : formatIssues(parsed.error.issues);
    };
    expect(problems({ latency: { kind: 'normal', meanMs: 10, sdMs: -2 } })).toEqual([
      'latency.sdMs: sdMs is a standard deviation: it cannot be negative',
    ]);
    expect(problems({ tools: { t: { latency: { request: { kind: 'uniform', minMs: 5, maxMs: 1 } } } } })).toEqual([
      'tools.t.latency.request.maxMs: minMs must not exceed maxMs',
    ]);
    expect(problems({ services: { s: { routes: { '/x': { latency: c(1) } } } } })[0]).toMatch(
      /^services\.s\.routes\["\/x"\]: .*expected a route as "METHOD \/path"/,
    );
    expect(problems({ latency: c(1), jitter: 1 })[0]).toMatch(/jitter/);
  });
});

describe('the wire with network latency', () => {
  const legs: Network = { latency: { request: c(30), response: c(50) } };

  it('delays the delivery by the request leg and the answer by the response leg, and records both', async () => {
    const t = trial([], { network: legs });
    const run = await t.clock.run(() => t.wire.send(t.request()));
    expect(run).toEqual({ kind: 'settled', value: { count: 1 }, at: START + 80 });
    expect(t.history.events.map((e) => [e.type, e.t])).toEqual([
      ['delivery', 30],
      ['effect', 30],
      ['response', 80],
    ]);
    expect(t.history.events[2]).toMatchObject({ result: 'ok', legs: { request: 30, response: 50 } });
  });

  it('a caller that times out while the answer travels has lost it, and the write is committed (R18)', async () => {
    const t = trial([], { network: legs });
    const ac = new AbortController();
    t.clock.setTimer(60, () => ac.abort(new TimeoutError(60)));
    const run = await t.clock.run(() => settle(t.wire.send(t.request(), ac.signal)));
    expect(run.kind === 'settled' && !run.value.ok && run.value.error).toBeInstanceOf(TimeoutError);
    expect(t.trace()).toEqual(['delivery:0', 'effect:req-1', 'response:lost']);
    expect(t.history.events.map((e) => e.t)).toEqual([30, 30, 60]);
    expect(t.counter.count()).toBe(1);
  });

  it('a caller that gives up before the request arrives: the request still arrives and commits', async () => {
    const t = trial([], { network: legs });
    const ac = new AbortController();
    t.clock.setTimer(10, () => ac.abort(new TimeoutError(10)));
    const run = await t.clock.run(async () => {
      const outcome = await settle(t.wire.send(t.request(), ac.signal));
      await t.clock.sleep(100);
      return outcome;
    });
    expect(run.kind === 'settled' && !run.value.ok).toBe(true);
    expect(t.history.events.map((e) => `${e.type}@${e.t}`)).toEqual(['response@10', 'delivery@30', 'effect@30']);
    expect(t.counter.count()).toBe(1);
  });

  it('adds to a latency fault: request leg, the slow service, response leg', async () => {
    const t = trial([{ match: {}, fault: { kind: 'latency', ms: 100 } }], { network: legs });
    const run = await t.clock.run(() => t.wire.send(t.request()));
    expect(run.kind === 'settled' && run.at - START).toBe(180);
  });

  it('a timeout fault sends no answer back: only the request leg is recorded', async () => {
    const t = trial([{ match: {}, fault: { kind: 'timeout' } }], { network: legs });
    const ac = new AbortController();
    t.clock.setTimer(1000, () => ac.abort(new TimeoutError(1000)));
    await t.clock.run(() => settle(t.wire.send(t.request(), ac.signal)));
    expect(t.history.events.at(-1)).toMatchObject({ type: 'response', result: 'lost', legs: { request: 30 } });
    expect(t.history.events.at(-1)).not.toHaveProperty('legs.response');
  });

  it('draws from its own fork: the same seed gives the same times, and fault draws are unchanged', async () => {
    const plan = [{ match: { probability: 0.5 }, fault: { kind: 'unavailable', status: 503 } }] as const;
    const times = async (seed: number, network?: Network) => {
      const t = trial([...plan], { seed, ...(network && { network }) });
      await t.clock.run(async () => {
        for (let i = 0; i < 20; i++) await settle(t.wire.send(t.request()));
      });
      return {
        faults: t.history.events.filter((e) => e.type === 'fault').map((e) => e.request),
        t: t.history.events.map((e) => e.t),
      };
    };
    const normal: Network = { latency: { kind: 'normal', meanMs: 10, sdMs: 2 } };
    expect(await times(4, normal)).toEqual(await times(4, normal));
    expect((await times(4, normal)).t).not.toEqual((await times(5, normal)).t);
    expect((await times(4, normal)).faults).toEqual((await times(4)).faults);
  });
});
