// Test support only: network latency over HTTP, one case table run by the msw and the nock test files.
import { describe, expect, it } from 'vitest';
import type { ClockRun, VirtualClock } from '../../src/core/index.js';
// Types only: the msw and the nock file each bring their own adapter, one per process.
import type { createHttpTrial, HttpFaults } from '../../src/public/msw.js';
import {
  defineHttpAgent,
  defineScenario,
  defineService,
  rulebookDefault,
  runTrial,
  z,
  type HttpAgentContext,
  type HistoryEvent,
  type ScenarioInput,
} from '../../src/public/index.js';

/** A write that reads, answers the read and sends its commit inside one call: two extra legs (`ctx.travel`). */
const ledger = defineService({
  name: 'ledger',
  state: { entries: 0 },
  tools: {
    append: {
      description: 'Appends an entry after reading the count.',
      risk: 'write',
      businessKey: 'entryId',
      input: z.object({ entryId: z.string() }).strict(),
      async run({ entryId }, ctx) {
        const read = ctx.state.entries;
        await ctx.travel('response');
        await ctx.travel('request');
        ctx.state.entries = read + 1;
        ctx.effect('entry.appended', { key: entryId });
        return { entries: read + 1 };
      },
    },
  },
});

const ORDER = { clientReference: 'ref-9', item: 'lamp', quantity: 1, amountCents: 4500 };
const c = (ms: number) => ({ kind: 'constant', ms }) as const;

/** One create_order over fetch, timed with the (virtual) `Date.now`; a `timeoutMs` gives up with `AbortSignal.timeout`. */
const agent = (timeoutMs?: number) =>
  defineHttpAgent(async ({ services }: HttpAgentContext) => {
    const url = `${services['orders']!.baseUrl}/tools/create_order`;
    const sent = Date.now();
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'order-ref-9' },
        body: JSON.stringify(ORDER),
        ...(timeoutMs !== undefined && { signal: AbortSignal.timeout(timeoutMs) }),
      });
      await res.json();
      const took = Date.now() - sent;
      return {
        outcome: res.ok ? 'completed' : 'failed',
        message: `took ${took} ms`,
        claims: [{ subject: 'orders:ref-9', status: res.ok ? 'succeeded' : 'failed' }],
      };
    } catch {
      // The answer never came: the order may well exist (R18), so the honest claim is unknown.
      return {
        outcome: 'unknown',
        message: `gave up after ${Date.now() - sent} ms`,
        claims: [{ subject: 'orders:ref-9', status: 'unknown' }],
      };
    }
  });

const scenario = (adapter: 'msw' | 'nock', network: ScenarioInput['network'], timeoutMs?: number) =>
  defineScenario({
    name: `orders-over-a-slow-${adapter}-network`,
    services: ['orders'],
    http: { adapter },
    network,
    agent: { kind: 'http', task: 'Create order ref-9', run: agent(timeoutMs) },
    // With a timeout the agent cannot know the order went through: unknown is the honest outcome (R20).
    goal: { effects: { 'order.created': 1 }, outcome: timeoutMs === undefined ? ['completed'] : ['unknown'] },
  });

const at = (h: readonly HistoryEvent[], type: HistoryEvent['type']) => h.filter((e) => e.type === type).map((e) => e.t);

/** What a test file's adapter subpath (`faultline/msw` or `faultline/nock`) gives the cases. */
export interface AdapterApi {
  readonly createHttpTrial: typeof createHttpTrial;
  runWith<T>(faults: HttpFaults, clock: VirtualClock, body: () => Promise<T>): Promise<ClockRun<T>>;
}

export function describeNetworkLatency(adapter: 'msw' | 'nock', { createHttpTrial, runWith }: AdapterApi): void {
  describe(`network latency over HTTP (${adapter})`, () => {
    it('createHttpTrial takes a network too: your own client call crosses both legs on the virtual clock', async () => {
      const trial = createHttpTrial({
        plan: [],
        serviceNames: ['orders'],
        network: { latency: { kind: 'uniform', minMs: 20, maxMs: 40 } },
      });
      const run = await runWith(trial.faults, trial.clock, async () => {
        const res = await fetch('https://tools.faultline.test/tools/create_order', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ORDER),
        });
        return res.status;
      });
      expect(run.kind === 'settled' && run.value).toBe(200);
      const response = trial.history.events.find((e) => e.type === 'response')!;
      const { request, response: back } = response.legs!;
      for (const leg of [request, back!]) expect(leg >= 20 && leg <= 40).toBe(true);
      expect(at(trial.history.events, 'delivery')).toEqual([request]);
      expect(response.t).toBe(request + back!);
      expect(() =>
        createHttpTrial({ plan: [], network: { latency: { kind: 'uniform', minMs: 40, maxMs: 20 } } }),
      ).toThrow('network.latency.maxMs: minMs must not exceed maxMs');
    });

    it('puts both legs on the virtual clock: delivered after the request leg, answered after the response leg', async () => {
      const trial = await runTrial({
        scenario: scenario(adapter, { latency: { request: c(30), response: c(50) } }),
        config: rulebookDefault,
        runSeed: 1,
        trialIndex: 0,
      });
      expect(trial.status).toBe('passed');
      expect(at(trial.history, 'http_request')).toEqual([0]);
      expect(at(trial.history, 'delivery')).toEqual([30]);
      expect(at(trial.history, 'effect')).toEqual([30]);
      expect(at(trial.history, 'response')).toEqual([80]);
      expect(trial.history.find((e) => e.type === 'response')).toMatchObject({
        result: 'ok',
        status: 200,
        legs: { request: 30, response: 50 },
      });
      expect(trial.history.find((e) => e.type === 'agent_end')).toMatchObject({
        outcome: 'completed',
        message: 'took 80 ms',
      });
    });

    it('takes a route (method and path) over its tool, its service and the default', async () => {
      const network = {
        latency: c(1),
        services: {
          orders: { latency: c(2), routes: { 'POST /tools/create_order': { latency: { response: c(40) } } } },
        },
        tools: { create_order: { latency: { request: c(7), response: c(9) } } },
      };
      const trial = await runTrial({
        scenario: scenario(adapter, network),
        config: rulebookDefault,
        runSeed: 1,
        trialIndex: 0,
      });
      expect(trial.history.find((e) => e.type === 'response')).toMatchObject({ legs: { request: 7, response: 40 } });
      expect(at(trial.history, 'response')).toEqual([47]);
    });

    it('a client timeout while the answer travels: the order is committed, the answer lost, the outcome unknown', async () => {
      const trial = await runTrial({
        scenario: scenario(adapter, { latency: { request: c(30), response: c(50) } }, 60),
        config: rulebookDefault,
        runSeed: 1,
        trialIndex: 0,
      });
      expect(at(trial.history, 'effect')).toEqual([30]);
      const response = trial.history.find((e) => e.type === 'response');
      expect(response).toMatchObject({ t: 60, result: 'lost', legs: { request: 30, response: 50 } });
      expect(response?.message).toMatch(/^answer on its way: the client gave up after 60 ms/);
      expect(trial.history.find((e) => e.type === 'agent_end')).toMatchObject({
        outcome: 'unknown',
        message: 'gave up after 60 ms',
      });
      expect(trial.snapshot.ledger.map((e) => e.effect)).toEqual(['order.created']);
      expect(trial.checks.filter((x) => x.verdict.valid !== true)).toEqual([]);
    });

    it("gives a service's extra round trip (ctx.travel) the route's legs over HTTP too", async () => {
      const run = defineHttpAgent(async ({ services }: HttpAgentContext) => {
        const res = await fetch(`${services['ledger']!.baseUrl}/tools/append`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ entryId: 'e-1' }),
        });
        return { outcome: res.ok ? 'completed' : 'failed' };
      });
      const network = {
        services: { ledger: { routes: { 'POST /tools/append': { latency: { request: c(10), response: c(20) } } } } },
      };
      const trial = await runTrial({
        scenario: defineScenario({
          name: `ledger-${adapter}`,
          services: [ledger],
          http: { adapter },
          network,
          agent: { kind: 'http', task: 'Append e-1', run },
          goal: { effects: { 'entry.appended': 1 } },
        }),
        config: rulebookDefault,
        runSeed: 1,
        trialIndex: 0,
      });
      expect(trial.status).toBe('passed');
      // Delivered at 10; the read's answer back (20) and the commit's request (10) inside the call; the answer back (20).
      expect([at(trial.history, 'delivery'), at(trial.history, 'effect'), at(trial.history, 'response')]).toEqual([
        [10],
        [40],
        [60],
      ]);
    });

    it('a client timeout before the request arrives: the request still arrives and commits (R18)', async () => {
      const trial = await runTrial({
        scenario: scenario(adapter, { latency: { request: c(100), response: c(10) } }, 60),
        config: rulebookDefault,
        runSeed: 1,
        trialIndex: 0,
      });
      const response = trial.history.find((e) => e.type === 'response');
      expect(response).toMatchObject({ t: 60, result: 'lost', legs: { request: 100 } });
      expect(response?.message).toMatch(/^request on its way: the client gave up after 60 ms/);
      expect(trial.history.find((e) => e.type === 'agent_end')).toMatchObject({ outcome: 'unknown' });
    });
  });
}
