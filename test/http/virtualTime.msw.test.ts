import http from 'node:http';
import axios from 'axios';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { History, Rng, VirtualClock, wallMs } from '../../src/core/index.js';
import { HttpFaults } from '../../src/faults/http/HttpFaults.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { openaiService } from '../../src/model/api/modelServices.js';
import { ordersRoutes } from '../../src/faults/http/toolRoutes.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { ScriptedModel } from '../../src/model/ScriptedModel.js';
import { createWorld } from '../../src/world/createWorld.js';
import { ORDER, START } from './support.js';

const PLAIN = 'http://api.shop.test';

function trial(plan: FaultPlan) {
  const clock = new VirtualClock(START);
  const history = new History(clock);
  const world = createWorld(clock, {}, ['orders']);
  const model = new ScriptedModel({ steps: [{ tool: 'create_order', input: ORDER }] });
  const faults = new HttpFaults({
    services: [{ baseUrl: PLAIN, routes: ordersRoutes(world) }, openaiService(model)],
    plan,
    clock,
    rng: new Rng(3),
    history,
    world,
  });
  return { clock, history, faults };
}

/** node:http's own API with a 30 s `req.setTimeout`, as older SDKs are written. */
function postWithNodeHttp(): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request(`${PLAIN}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.setTimeout(30_000, () => req.destroy(Object.assign(new Error('socket timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (e: Error & { code?: string }) => resolve(`node:http ${e.code ?? e.message}`));
    req.on('response', (res) => resolve(`node:http status ${res.statusCode}`));
    req.end(JSON.stringify(ORDER));
  });
}

const lost = (history: History): { t: number; message: unknown }[] =>
  history.events.flatMap((e) => (e.type === 'response' ? [{ t: e.t, message: e.message }] : []));

describe('virtual time for real clients', () => {
  it('a 30-second client timeout under a timeout fault takes milliseconds: fetch, axios and node:http each give up at 30 virtual seconds', async () => {
    const { clock, history, faults } = trial([{ match: { tool: 'create_order' }, fault: { kind: 'timeout' } }]);
    const started = wallMs();
    const run = await runWithMsw(faults, clock, async () => {
      const seen: string[] = [];
      const at = (): number => clock.now() - START;
      await fetch(`${PLAIN}/orders`, {
        method: 'POST',
        body: JSON.stringify(ORDER),
        signal: AbortSignal.timeout(30_000),
      }).catch((e: Error) => seen.push(`fetch ${e.name} at ${at()}`));
      await axios
        .post(`${PLAIN}/orders`, ORDER, { timeout: 30_000 })
        .catch((e: Error & { code?: string }) => seen.push(`axios ${e.code} at ${at()}`));
      seen.push(`${await postWithNodeHttp()} at ${at()}`);
      return seen;
    });
    const wall = wallMs() - started;

    expect(run).toEqual({
      kind: 'settled',
      value: ['fetch TimeoutError at 30000', 'axios ECONNABORTED at 60000', 'node:http ETIMEDOUT at 90000'],
      at: START + 90_000,
    });
    expect(lost(history)).toEqual([
      { t: 30_000, message: 'no answer (timeout fault): the client gave up after 30000 ms (TimeoutError)' },
      { t: 60_000, message: 'no answer (timeout fault): the client gave up after 30000 ms (RequestClosed)' },
      { t: 90_000, message: 'no answer (timeout fault): the client gave up after 30000 ms (RequestClosed)' },
    ]);
    expect(wall).toBeLessThan(1_000);
  });

  it('the OpenAI SDK’s own timeout and backoff run on the clock: three 30 s timeouts and two backoffs, in milliseconds', async () => {
    const { clock, history, faults } = trial([
      { match: { tool: 'model:openai.chat.completions' }, fault: { kind: 'timeout' } },
    ]);
    const started = wallMs();
    const run = await runWithMsw(
      faults,
      clock,
      async () => {
        const client = new OpenAI({ apiKey: 'sk-test', timeout: 30_000 });
        return client.chat.completions
          .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'order a book' }] })
          .catch((e: Error) => e.constructor.name);
      },
      { timers: { random: new Rng(11) } },
    );
    const wall = wallMs() - started;
    expect(run.kind === 'settled' && run.value).toBe('APIConnectionTimeoutError');
    const gaveUp = history.events.flatMap((e) =>
      e.type === 'model_error' ? [{ attempt: e.attempt, kind: e.error.kind }] : [],
    );
    expect(gaveUp).toEqual([
      { attempt: 1, kind: 'timeout' },
      { attempt: 2, kind: 'timeout' },
      { attempt: 3, kind: 'timeout' },
    ]);
    // Each try waits its full 30 s; the SDK's backoffs (0.5 s, then 1 s, less jitter) sit between them.
    const times = lost(history).map((r) => r.t);
    expect(times[0]).toBe(30_000);
    expect(times[1]! - times[0]!).toBeGreaterThan(30_375);
    expect(times[1]! - times[0]!).toBeLessThanOrEqual(30_500);
    expect(times[2]! - times[1]!).toBeGreaterThan(30_750);
    expect(times[2]! - times[1]!).toBeLessThanOrEqual(31_000);
    expect(wall).toBeLessThan(1_000);
  });

  it('replays the SDK’s jittered backoff exactly when Math.random comes from the trial’s rng', async () => {
    const once = async (): Promise<number[]> => {
      const { clock, history, faults } = trial([
        { match: { tool: 'model:openai.chat.completions' }, fault: { kind: 'unavailable', status: 503 } },
      ]);
      await runWithMsw(
        faults,
        clock,
        async () =>
          new OpenAI({ apiKey: 'sk-test' }).chat.completions
            .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
            .catch(() => null),
        { timers: { random: new Rng(5) } },
      );
      return history.events.filter((e) => e.type === 'response').map((e) => e.t);
    };
    const first = await once();
    expect(first).toHaveLength(3);
    expect(await once()).toEqual(first);
  });
});
