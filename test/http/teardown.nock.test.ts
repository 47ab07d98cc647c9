import http from 'node:http';
import https from 'node:https';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { always, localServer, shopTrial, START } from './support.js';

// Node's own, captured before nock is imported: nock patches node:http the moment it loads.
const pristine = {
  request: http.request,
  get: http.get,
  ClientRequest: http.ClientRequest,
  httpsRequest: https.request,
  fetch: globalThis.fetch,
};
const { runWithNock } = await import('../../src/faults/http/nock.js');
const { default: nock } = await import('nock');

let real: Awaited<ReturnType<typeof localServer>>;
beforeAll(async () => (real = await localServer()));
afterAll(() => real.close());

const failure = async (work: Promise<unknown>): Promise<{ name: string; code?: unknown }> =>
  work.then(
    () => ({ name: 'no failure' }),
    (e: Error & { code?: unknown }) => ({ name: e.name, code: e.code }),
  );

describe('nock adapter: nothing stays installed after a trial', () => {
  it('answers the faulted route during the trial; after it node:http and fetch are Node’s own and reach the real server', async () => {
    const { clock, faults } = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
    const during = await runWithNock(
      faults,
      clock,
      async () => (await axios.get(`${real.url}/orders/ord-1`, { validateStatus: () => true })).status,
    );
    expect(during).toEqual({ kind: 'settled', value: 503, at: START });
    expect(real.hits).toEqual([]);

    expect(nock.isActive()).toBe(false);
    expect({
      request: http.request,
      get: http.get,
      ClientRequest: http.ClientRequest,
      httpsRequest: https.request,
      fetch: globalThis.fetch,
    }).toEqual(pristine);
    expect((await axios.get(`${real.url}/orders/ord-1`)).data).toEqual({ real: true });
    expect(await (await fetch(`${real.url}/orders/ord-1`)).json()).toEqual({ real: true });
    expect(real.hits).toEqual(['GET /orders/ord-1', 'GET /orders/ord-1']);
    real.hits.length = 0;
  });

  it('refuses unhandled requests by default (nock’s named errors), and lets them through under "bypass"', async () => {
    const strict = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
    const refused = await runWithNock(strict.faults, strict.clock, async () => [
      await failure(axios.get(`${real.url}/not-a-route`)),
      await failure(axios.get('http://127.0.0.2:9/elsewhere')),
    ]);
    expect(refused).toEqual({
      kind: 'settled',
      value: [
        { name: 'Error', code: 'ERR_NOCK_NO_MATCH' },
        { name: 'NetConnectNotAllowedError', code: 'ENETUNREACH' },
      ],
      at: START,
    });
    expect(real.hits).toEqual([]);

    const open = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
    const passed = await runWithNock(
      open.faults,
      open.clock,
      async () => (await axios.get(`${real.url}/health`)).data as unknown,
      { onUnhandledRequest: 'bypass' },
    );
    expect(passed).toEqual({ kind: 'settled', value: { real: true }, at: START });
    expect(real.hits).toEqual(['GET /health']);
    real.hits.length = 0;
    // The net-connect block of the strict trial did not outlive it either.
    expect((await axios.get(`${real.url}/after`)).data).toEqual({ real: true });
    real.hits.length = 0;
  });

  it('a second trial activates nock again and faults again', async () => {
    for (let i = 0; i < 2; i++) {
      const { clock, faults } = shopTrial(always({ kind: 'unavailable', status: 503 }), [], real.url);
      const run = await runWithNock(
        faults,
        clock,
        async () => (await axios.get(`${real.url}/orders/ord-1`, { validateStatus: () => true })).status,
      );
      expect(run).toEqual({ kind: 'settled', value: 503, at: START });
    }
    expect(real.hits).toEqual([]);
  });
});
