import http from 'node:http';
import https from 'node:https';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { always, localServer, shopTrial, START } from './support.js';

let real: Awaited<ReturnType<typeof localServer>>;
beforeAll(async () => (real = await localServer()));
afterAll(() => real.close());

const getJson = async (url: string): Promise<unknown> => (await fetch(url)).json();
const failure = async (work: Promise<unknown>): Promise<{ code?: unknown; message: string }> =>
  work.then(
    () => ({ message: 'no failure' }),
    (e: Error & { code?: unknown }) => ({ code: e.code, message: e.message }),
  );

describe('msw adapter: nothing stays installed after a trial', () => {
  it('answers the faulted route during the trial, and the real server answers the same URL after it, for fetch and axios', async () => {
    const globals = {
      fetch: globalThis.fetch,
      setTimeout: globalThis.setTimeout,
      request: http.request,
      get: http.get,
      httpsRequest: https.request,
    };
    const { clock, faults } = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
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
    expect({
      fetch: globalThis.fetch,
      setTimeout: globalThis.setTimeout,
      request: http.request,
      get: http.get,
      httpsRequest: https.request,
    }).toEqual(globals);
    real.hits.length = 0;
  });

  it('fails unhandled requests with FAULTLINE_UNHANDLED_REQUEST by default, so nothing leaks to the network', async () => {
    const { clock, faults } = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
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
    const bypass = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
    const passed = await runWithMsw(bypass.faults, bypass.clock, () => getJson(`${real.url}/health`), {
      onUnhandledRequest: 'bypass',
    });
    expect(passed).toEqual({ kind: 'settled', value: { real: true }, at: START });

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const warned = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
      const run = await runWithMsw(
        warned.faults,
        warned.clock,
        async () => (await axios.get(`${real.url}/health`)).data as unknown,
        { onUnhandledRequest: 'warn' },
      );
      expect(run).toEqual({ kind: 'settled', value: { real: true }, at: START });
      expect(warn.mock.calls).toEqual([
        [
          `faultline: no route for GET ${real.url}/health; passing it through to the network (unhandled-request policy "warn")`,
        ],
      ]);
    } finally {
      warn.mockRestore();
    }
    expect(real.hits).toEqual(['GET /health', 'GET /health']);
    real.hits.length = 0;
  });

  it('tears down even when the trial body throws', async () => {
    const before = globalThis.fetch;
    const { clock, faults } = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
    const run = await runWithMsw(faults, clock, () => Promise.reject(new Error('tool crashed')));
    expect(run.kind).toBe('threw');
    expect(globalThis.fetch).toBe(before);
    expect(await getJson(`${real.url}/after-crash`)).toEqual({ real: true });
    real.hits.length = 0;
  });
});
