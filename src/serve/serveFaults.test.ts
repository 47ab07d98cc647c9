import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RealClock, type History } from '../core/index.js';
import type { StreamFault } from '../faults/fault.js';
import type { FaultPlan } from '../faults/plan.js';
import { streamReply } from '../faults/http/HttpAnswer.js';
import { faultedService } from '../faults/http/faultedService.testkit.js';
import type { HttpRoute } from '../faults/http/HttpRoute.js';
import { serveFaults, type ServedWorld } from './serveFaults.js';

const SHOP = 'https://api.shop.test/v2';
const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 900 };

let open: ServedWorld | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const STREAM_EVENTS = ['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: {"n":3}\n\n', 'data: [DONE]\n\n'];

/** A model route that streams STREAM_EVENTS, served under `plan`; `open` is set to it. */
async function servedStream(plan: FaultPlan): Promise<{ history: History }> {
  const route: HttpRoute = {
    method: 'POST',
    path: '/chat',
    operation: 'model:test.chat',
    kind: 'model',
    input: (req) => req.body,
    serve: () => streamReply(STREAM_EVENTS),
  };
  const { history, faults } = faultedService(new RealClock(), plan, 'https://api.model.test/v1', {
    routes: () => [route],
  });
  open = await serveFaults(faults);
  return { history };
}

async function served(plan: FaultPlan) {
  const { history, world, faults } = faultedService(new RealClock(), plan, SHOP);
  open = await serveFaults(faults);
  const post = (init: RequestInit = {}): Promise<Response> =>
    fetch(`${open!.urlOf(SHOP)}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k1' },
      body: JSON.stringify(ORDER),
      ...init,
    });
  return { history, world, post, served: open };
}

describe('serveFaults', () => {
  it('serves the routes at their declared path on loopback, under the plan, and records what crossed the socket', async () => {
    const {
      post,
      history,
      world,
      served: s,
    } = await served([{ match: { attempt: 1 }, fault: { kind: 'rate_limit', retryAfter: 2 } }]);
    expect(s.urlOf(SHOP)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    const refused = await post();
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '2']);
    await refused.text();
    const created = await post();
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ clientReference: 'ref-1' });
    expect(world.ledger.effects).toHaveLength(1);
    const events = history.events.filter((e) => e.type === 'http_request' || e.type === 'response');
    expect(
      events.map((e) => [e.type, 'attempt' in e ? e.attempt : undefined, 'status' in e ? e.status : undefined]),
    ).toEqual([
      ['http_request', 1, undefined],
      ['response', 1, 429],
      ['http_request', 2, undefined],
      ['response', 2, 201],
    ]);
    expect(events[0]).toMatchObject({ url: 'https://api.shop.test/v2/orders', idempotencyKey: 'k1' });
  });

  it('resets the connection for a network fault, and answers a path no route takes with a 404 naming it', async () => {
    const { post, served: s } = await served([
      { match: { attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'network' } },
    ]);
    await expect(post()).rejects.toThrow(/fetch failed/);
    const missing = await fetch(`${s.urlOf(SHOP)}/nothing-here`, { method: 'POST' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(/no route of this scenario takes POST \/v2\/nothing-here/);
  });

  it('stays silent on a timeout fault until the client gives up, then records the answer as lost', async () => {
    const { post, history } = await served([{ match: {}, fault: { kind: 'timeout' } }]);
    const has = (type: string): boolean => history.events.some((e) => e.type === type);
    const sleep = (ms: number): Promise<void> => new RealClock().sleep(ms);
    // The client gives up once the server holds its request, and 150 ms of silence later: with a
    // plain 150 ms timeout from the send, a loaded machine (load 30) aborted before the request
    // had reached the server, which then never saw one to answer, nor to record as lost.
    const giveUp = new AbortController();
    let settled = false;
    const sent = post({ signal: giveUp.signal }).finally(() => (settled = true));
    while (!has('http_request')) await sleep(10);
    await sleep(150);
    expect(settled).toBe(false);
    giveUp.abort();
    await expect(sent).rejects.toThrow();
    // The socket's close reaches the server a moment after the client's abort: as long as that
    // takes on a loaded machine (a close that never comes is caught by the test's timeout).
    while (!has('response')) await sleep(10);
    expect(history.events.find((e) => e.type === 'response')).toMatchObject({
      result: 'lost',
      message: expect.stringMatching(/the client gave up after \d+ ms \(AbortError\)/) as unknown,
    });
  });

  it('streams a streamed answer as server-sent events, event by event, and a stream_cut ends the connection mid-body', async () => {
    const { history } = await servedStream([{ match: {}, fault: { kind: 'stream_cut', afterEvents: 2 }, times: 1 }]);
    const ask = (): Promise<Response> =>
      fetch(`${open!.urlOf('https://api.model.test/v1')}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ stream: true }),
      });
    const cut = await ask();
    expect([cut.status, cut.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const reader = cut.body!.getReader();
    const decoder = new TextDecoder();
    let read = '';
    await expect(
      (async () => {
        for (let r = await reader.read(); !r.done; r = await reader.read()) read += decoder.decode(r.value);
      })(),
    ).rejects.toThrow(/terminated/);
    expect(read).toBe(STREAM_EVENTS.slice(0, 2).join(''));
    const whole = await ask();
    expect(await whole.text()).toBe(STREAM_EVENTS.join(''));
    const responses = history.events.filter((e) => e.type === 'response');
    expect(responses).toMatchObject([
      {
        result: 'error',
        stream: { events: 2, of: 4 },
        message: 'the connection dropped mid-stream after 2 of 4 events (stream_cut)',
      },
      { result: 'ok', stream: { events: 4, of: 4 } },
    ]);
  });

  // A node:http client, listening as many do (no `error` listener on the response): the head
  // comes at once, a cut or a stall it gives up on ends the body `aborted`, never complete.
  it.each<[string, StreamFault | undefined, { how: string; complete: boolean; events: number }]>([
    ['no fault', undefined, { how: 'end', complete: true, events: 4 }],
    ['stream_cut', { kind: 'stream_cut', afterEvents: 2 }, { how: 'aborted', complete: false, events: 2 }],
    ['stream_stall', { kind: 'stream_stall', afterEvents: 2 }, { how: 'aborted', complete: false, events: 2 }],
    ['stream_malformed', { kind: 'stream_malformed', afterEvents: 2 }, { how: 'end', complete: true, events: 4 }],
  ])('streams to a node:http client under %s as a real server would', async (_name, fault, expected) => {
    await servedStream(fault ? [{ match: {}, fault }] : []);
    const seen = await new Promise<{ how: string; complete: boolean; events: number; text: string }>(
      (resolve, reject) => {
        const req = http.request(
          `${open!.urlOf('https://api.model.test/v1')}/chat`,
          { method: 'POST', headers: { 'content-type': 'application/json' } },
          (res) => {
            let text = '';
            const events = (): number => text.split('\n\n').filter((e) => e.startsWith('data: ')).length;
            // The client gives up on a stalled body: once it holds the events the stall lets through,
            // when nothing more comes for 300 ms (a real clock: nothing under src/ calls setTimeout
            // itself). Only then: a limit armed at the head raced the body's four 10 ms event gaps,
            // and on a loaded machine a complete stream (stream_malformed) was cut short, `aborted`
            // before its `end`. A body that ends ends on its own, however slow the machine; one that
            // hangs is caught by the test's timeout.
            const limit = new AbortController();
            let armed = false;
            const done = (how: string): void => {
              limit.abort();
              resolve({ how, complete: res.complete, events: events(), text });
            };
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
              if (fault?.kind !== 'stream_stall' || armed || events() < fault.afterEvents) return;
              armed = true;
              new RealClock().sleep(300, limit.signal).then(
                () => req.destroy(),
                () => undefined,
              );
            });
            res.once('end', () => done('end'));
            res.once('aborted', () => done('aborted'));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ stream: true }));
      },
    );
    expect({ how: seen.how, complete: seen.complete, events: seen.events }).toEqual(expected);
    if (fault?.kind === 'stream_malformed') expect(seen.text).not.toContain(STREAM_EVENTS[2]);
    else expect(seen.text).toBe(STREAM_EVENTS.slice(0, expected.events).join(''));
  });
});
