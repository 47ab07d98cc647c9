/**
 * Streamed Chat Completions answers read by plain node:http clients (`https.request`, and
 * axios with `responseType: 'stream'`, which sits on it), for the msw and nock tests. Each
 * listens as many such clients do: `data`, `end`, `aborted` and `close`, with no `error`
 * listener on the response. When a real server drops the connection mid-body, Node's
 * `IncomingMessage` emits `aborted` and `close` and keeps its error to itself when no one
 * listens for it: the client sees a body that is not `complete`, and the process does not crash.
 */
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import axios from 'axios';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/ScriptedModel.js';
import { eventsOf, type ClockRun, type VirtualClock } from '../../src/core/index.js';
import type { Fault } from '../../src/faults/fault.js';
import { createHttpTrial, type HttpTrial } from '../../src/faults/http/createHttpTrial.js';
import type { HttpFaults } from '../../src/faults/http/HttpFaults.js';
import { openaiService } from '../../src/model/api/modelServices.js';
import { ORDER } from './support.js';

export const CHAT = 'model:openai.chat.completions';
const URL = 'https://api.openai.com/v1/chat/completions';
const BODY = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Order one book' }] });
const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer sk-test' };
/** The client's own limit on a streamed answer: past it, it destroys the request. */
export const CLIENT_TIMEOUT_MS = 5_000;

/** How the client saw the streamed body end. */
export interface BodyEnd {
  readonly status: number | undefined;
  /** The `data:` events read. */
  readonly events: number;
  /** Of those, the ones whose data is neither JSON nor `[DONE]`. */
  readonly unreadable: number;
  readonly complete: boolean;
  readonly how: 'end' | 'aborted' | 'close' | 'request-error';
}

function summary(status: number | undefined, text: string, complete: boolean, how: BodyEnd['how']): BodyEnd {
  const events = text
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => e.slice('data: '.length));
  const readable = (data: string): boolean => {
    if (data === '[DONE]') return true;
    try {
      JSON.parse(data);
      return true;
    } catch {
      return false;
    }
  };
  return { status, events: events.length, unreadable: events.filter((d) => !readable(d)).length, complete, how };
}

/** Reads `res` to its end as a node:http client does; `settled` is told when it has. */
function readBody(res: IncomingMessage, settled: () => void): Promise<BodyEnd> {
  return new Promise((resolve) => {
    let text = '';
    const done = (how: BodyEnd['how']): void => {
      settled();
      resolve(summary(res.statusCode, text, res.complete, how));
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.once('end', () => done('end'));
    res.once('aborted', () => done('aborted'));
    res.once('close', () => done('close'));
  });
}

const NOTHING: BodyEnd = { status: undefined, events: 0, unreadable: 0, complete: false, how: 'request-error' };

/** One streamed request over `https.request`, the response read without an `error` listener; destroyed after CLIENT_TIMEOUT_MS. */
export function viaHttps(): Promise<BodyEnd> {
  return new Promise((resolve) => {
    const req = https.request(
      URL,
      { method: 'POST', headers: HEADERS },
      (res) => void readBody(res, () => clearTimeout(timer)).then(resolve),
    );
    const timer = setTimeout(() => req.destroy(), CLIENT_TIMEOUT_MS);
    // The request's own error (no answer at all) is the client's to hear.
    req.on('error', () => {
      clearTimeout(timer);
      resolve(NOTHING);
    });
    req.end(BODY);
  });
}

/** The same through axios's node:http adapter, its answer as a stream, aborted after CLIENT_TIMEOUT_MS. */
export async function viaAxios(): Promise<BodyEnd> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CLIENT_TIMEOUT_MS);
  try {
    const res = await axios.post<IncomingMessage>(URL, BODY, {
      headers: HEADERS,
      responseType: 'stream',
      signal: controller.signal,
      adapter: 'http',
    });
    return await readBody(res.data, () => clearTimeout(timer));
  } catch {
    clearTimeout(timer);
    return NOTHING;
  }
}

export const CLIENTS = [
  { name: 'https.request', read: viaHttps },
  { name: 'axios (responseType: stream)', read: viaAxios },
] as const;

export type Runner = <T>(faults: HttpFaults, clock: VirtualClock, body: () => Promise<T>) => Promise<ClockRun<T>>;

function trial(fault: Fault | undefined): HttpTrial {
  const model = new ScriptedModel({ steps: [{ tool: 'create_order', input: ORDER, subject: 'orders:ref-1' }] });
  return createHttpTrial({
    plan: fault ? [{ match: { tool: CHAT }, fault }] : [],
    services: () => [openaiService(model)],
  });
}

/** One trial through `runner`: what the client saw, when it finished (virtual ms), and the history's response event. */
export async function streamThrough(runner: Runner, read: () => Promise<BodyEnd>, fault?: Fault) {
  const t = trial(fault);
  const start = t.clock.now();
  const run = await runner(t.faults, t.clock, read);
  if (run.kind !== 'settled') throw new Error(`the client did not finish: ${run.kind}`);
  return {
    seen: run.value,
    after: run.at - start,
    response: eventsOf(t.history.events, 'response').find((r) => r.tool === CHAT),
  };
}

/**
 * The cases both adapters' tests run: a whole stream, and each stream fault after two events,
 * for each node:http client. vitest fails the file on any uncaught error or unhandled
 * rejection, so each case also says nothing escaped to the process.
 */
export function nodeHttpStreamCases(runner: Runner): void {
  describe.each(CLIENTS)('$name', ({ read }) => {
    it('reads a whole stream to its end', async () => {
      const { seen, response } = await streamThrough(runner, read);
      expect(seen).toMatchObject({ status: 200, complete: true, how: 'end', unreadable: 0 });
      expect(seen.events).toBeGreaterThan(2);
      expect(response).toMatchObject({ result: 'ok', status: 200 });
    });

    it('sees a stream cut after two events as a dropped connection: aborted, not complete', async () => {
      const { seen, response } = await streamThrough(runner, read, { kind: 'stream_cut', afterEvents: 2 });
      expect(seen).toEqual({ status: 200, events: 2, unreadable: 0, complete: false, how: 'aborted' });
      expect(response).toMatchObject({ result: 'error', status: 200, stream: { events: 2 } });
    });

    it('gives up on a stream stalled after two events at its own timeout', async () => {
      const { seen, after, response } = await streamThrough(runner, read, { kind: 'stream_stall', afterEvents: 2 });
      expect(seen).toEqual({ status: 200, events: 2, unreadable: 0, complete: false, how: 'aborted' });
      expect(after).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MS);
      expect(response).toMatchObject({ stream: { events: 2 } });
    });

    // Over node:http the interceptors send the head with the first event: a cut or a stall
    // before it is, to the client, a connection that ended or went silent before any answer.
    it.each(['stream_cut', 'stream_stall'] as const)(
      '%s before the first event: the request fails, the trial still ends',
      async (kind) => {
        const { seen, response } = await streamThrough(runner, read, { kind, afterEvents: 0 });
        expect(seen).toEqual(NOTHING);
        expect(response).toMatchObject({ stream: { events: 0 } });
      },
    );

    // The class of the deadlock fixed here: whatever the fault and wherever it strikes, the
    // trial ends, and the client never reads past the point the fault names.
    it('law: any stream fault after any number of events ends the trial, the client reading no further', async () => {
      const whole = await streamThrough(runner, read);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('stream_cut', 'stream_stall', 'stream_malformed'),
          fc.integer({ min: 0, max: whole.seen.events + 1 }),
          async (kind, afterEvents) => {
            const { seen } = await streamThrough(runner, read, { kind, afterEvents });
            const of = whole.seen.events;
            if (kind === 'stream_malformed' || afterEvents > of)
              expect(seen).toMatchObject({ how: 'end', complete: true, events: of });
            else if (afterEvents === 0) expect(seen).toEqual(NOTHING);
            // Even after the last event: the connection ends before the body does.
            else expect(seen).toMatchObject({ how: 'aborted', complete: false, events: afterEvents });
          },
        ),
        { numRuns: 12, seed: 21 },
      );
    });

    it('reads a stream with a malformed third event to its end, that event unreadable', async () => {
      const whole = await streamThrough(runner, read);
      const { seen, response } = await streamThrough(runner, read, { kind: 'stream_malformed', afterEvents: 2 });
      expect(seen).toEqual({ status: 200, events: whole.seen.events, unreadable: 1, complete: true, how: 'end' });
      expect(response).toMatchObject({ status: 200 });
    });
  });
}
