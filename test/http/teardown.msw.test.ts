import http from 'node:http';
import https from 'node:https';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { History, Rng, VirtualClock } from '../../src/core/index.js';
import { HttpFaults } from '../../src/faults/http/HttpFaults.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { ordersRoutes } from '../../src/faults/http/toolRoutes.js';
import { createWorld } from '../../src/world/createWorld.js';
import { always, localServer, START } from './support.js';

let real: Awaited<ReturnType<typeof localServer>>;
beforeAll(async () => (real = await localServer()));
afterAll(() => real.close());

/** A trial whose faulted service lives at the real server's own address: after teardown, the same URL must reach the real server. */
function trialAtRealAddress() {
  const clock = new VirtualClock(START);
  const history = new History(clock);
  const world = createWorld(clock, {}, ['orders']);
  const faults = new HttpFaults({ services: [{ baseUrl: real.url, routes: ordersRoutes(world) }], plan: always({ kind: 'unavailable', status: 503 }), clock, rng: new Rng(1), history, world });
  return { clock, faults };
}

const getJson = async (url: string): Promise<unknown> => (await fetch(url)).json();
const failure = async (work: Promise<unknown>): Promise<{ code?: unknown; message: string }> =>
  work.then(
    () => ({ message: 'no failure' }),
    (e: Error & { code?: unknown }) => ({ code: e.code, message: e.message }),
  );

describe('msw adapter: nothing stays installed after a trial', () => {
  it('answers the faulted route during the trial, and the real server answers the same URL after it, for fetch and axios', async () => {
    const globals = { fetch: globalThis.fetch, setTimeout: globalThis.setTimeout, request: http.request, get: http.get, httpsRequest: https.request };
    const { clock, faults } = trialAtRealAddress();
    const during = await runWithMsw(faults, clock, async () => {
      const viaFetch = (await fetch(`${real.url}/orders/ord-1`)).status;
      const viaAxios = (await axios.get(`${real.url}/orders/ord-1`, { validateStatus: () => true })).status;
      return [viaFetch, viaAxios];
    });
    expect(during).toEqual({ kind: 'settled', value: [503, 503], at: START });
    expect(real.hits).toEqual([]);

    expect(await getJson(`${real.url}/orders/ord-1`)).toEqual({ real: true });
    expect((await axios.get(`${real.url}/orders/ord-1`)).data).toEqual({ real: true });
    expect(real.hits).toEqual(['GET /orders/ord-1', 'GET /orders/ord-1']);
    expect({ fetch: globalThis.fetch, setTimeout: globalThis.setTimeout, request: http.request, get: http.get, httpsRequest: https.request }).toEqual(globals);
    real.hits.length = 0;
  });

  it('fails unhandled requests with FAULTLINE_UNHANDLED_REQUEST by default, so nothing leaks to the network', async () => {
    const { clock, faults } = trialAtRealAddress();
    const run = await runWithMsw(faults, clock, async () => [
      await failure(fetch(`${real.url}/not-a-route`)),
      await failure(axios.get(`${real.url}/not-a-route`)),
    ]);
    const message = `faultline: no route for GET ${real.url}/not-a-route (unhandled-request policy "error"; use "warn" or "bypass" to let it through)`;
    expect(run).toEqual({
      kind: 'settled',
      value: [
        { code: 'FAULTLINE_UNHANDLED_REQUEST', message },
        { code: 'FAULTLINE_UNHANDLED_REQUEST', message },
      ],
      at: START,
    });
    expect(real.hits).toEqual([]);
  });

  it('lets unhandled requests through under "bypass", and warns under "warn"', async () => {
    const bypass = trialAtRealAddress();
    const passed = await runWithMsw(bypass.faults, bypass.clock, () => getJson(`${real.url}/health`), { onUnhandledRequest: 'bypass' });
    expect(passed).toEqual({ kind: 'settled', value: { real: true }, at: START });

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const warned = trialAtRealAddress();
      const run = await runWithMsw(warned.faults, warned.clock, async () => (await axios.get(`${real.url}/health`)).data as unknown, { onUnhandledRequest: 'warn' });
      expect(run).toEqual({ kind: 'settled', value: { real: true }, at: START });
      expect(warn.mock.calls).toEqual([[`faultline: no route for GET ${real.url}/health; passing it through to the network (unhandled-request policy "warn")`]]);
    } finally {
      warn.mockRestore();
    }
    expect(real.hits).toEqual(['GET /health', 'GET /health']);
    real.hits.length = 0;
  });

  it('tears down even when the trial body throws', async () => {
    const before = globalThis.fetch;
    const { clock, faults } = trialAtRealAddress();
    const run = await runWithMsw(faults, clock, () => Promise.reject(new Error('tool crashed')));
    expect(run.kind).toBe('threw');
    expect(globalThis.fetch).toBe(before);
    expect(await getJson(`${real.url}/after-crash`)).toEqual({ real: true });
    real.hits.length = 0;
  });
});
