import { http, HttpResponse, passthrough, type HttpHandler } from 'msw';
import { isSdkTelemetry, refusal, TELEMETRY_CODE, TELEMETRY_WHY } from './outboundGuard.js';
import { HttpNetworkFrame } from 'msw/experimental';
import { setupServer, type SetupServer } from 'msw/node';
import { holdOn, type ClockRun, type VirtualClock } from '../../core/index.js';
import { ExchangeTracker, rawClientRequest } from './ExchangeTracker.js';
import { fetchFailed, isInjected, socketError, type HttpAnswer } from './HttpAnswer.js';
import type { HttpFaults } from './HttpFaults.js';
import { runIntercepted, type InterceptedRunOptions } from './runIntercepted.js';
import type { ArrivalHolds } from './ArrivalHolds.js';
import { TrialInterception } from './TrialInterception.js';
import { webStream } from './streamBodies.js';
import { unhandledRequestError, unhandledWarning, type UnhandledRequestPolicy } from './UnhandledRequestPolicy.js';

export interface MswAdapterOptions {
  /** What happens to requests no route takes (default `error`). */
  readonly onUnhandledRequest?: UnhandledRequestPolicy;
}

const never = (): Promise<never> => new Promise<never>(() => {});

function lowerHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name.toLowerCase()] = value));
  return out;
}

/** What the intercepted client sees for `answer`, thrown or returned as msw expects. */
function toMsw(answer: HttpAnswer, viaNodeHttp: boolean, pulled: () => void): Promise<Response> | Response {
  switch (answer.kind) {
    case 'respond':
      // No body at all (not an empty one) for HEAD and 204: `new Response` refuses a body on a 204.
      return new HttpResponse(answer.body === '' ? null : answer.body, {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
    case 'network':
      // fetch wraps the socket error (`TypeError: fetch failed`, cause ECONNRESET); node:http emits it as is.
      throw viaNodeHttp ? socketError(answer.code, answer.message) : fetchFailed(answer.code, answer.message);
    case 'hang':
      // Silence: the client's own timeout (or the trial's end) is the only way out.
      return never();
    case 'stream':
      return new HttpResponse(webStream(answer, !viaNodeHttp, pulled), {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
  }
}

function faultHandler(
  faults: HttpFaults,
  origin: string,
  tracker: ExchangeTracker,
  arrivals: ArrivalHolds | undefined,
): HttpHandler {
  const hold = holdOn(faults.clock);
  return http.all(`${origin}/*`, async ({ request }) => {
    // Not ours: fall through to the unhandled-request policy.
    if (!faults.handles(request.method, request.url)) return undefined;
    const raw = rawClientRequest(request);
    const signal = tracker.track({ signal: request.signal, raw });
    const body = await hold(request.text());
    const claim = arrivals?.claim(request.method, request.url);
    const answer = await faults.exchange(
      { method: request.method, url: request.url, headers: lowerHeaders(request.headers), body },
      signal,
    );
    if (!answer) return undefined;
    const letGo = answer.kind === 'hang' ? undefined : claim?.answerOnItsWay();
    return toMsw(answer, raw !== undefined, () => letGo?.());
  });
}

function unhandledHandler(faults: HttpFaults, policy: UnhandledRequestPolicy): HttpHandler {
  return http.all('*', ({ request }) => {
    if (isSdkTelemetry(request.method, request.url)) {
      const answer = refusal(request.method, request.url, TELEMETRY_WHY, TELEMETRY_CODE);
      return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
    }
    if (policy === 'error') {
      faults.refuseUnserved(request.method, request.url);
      throw unhandledRequestError(request.method, request.url);
    }
    if (policy === 'warn') console.warn(unhandledWarning(request.method, request.url, policy));
    return passthrough();
  });
}

let quieted = 0;
let restoreResolve: (() => void) | undefined;

/**
 * msw logs every error thrown from a resolver as a crash unless the frame itself has an
 * `unhandledException` listener, which its public API cannot add. Our network faults are
 * thrown on purpose (the interceptors pass a Node-style error through as a failed
 * connection), so while a session runs each frame gets a listener that stays quiet about
 * them and still logs anything else.
 */
function quietInjectedErrors(): () => void {
  if (quieted++ === 0) {
    const proto = HttpNetworkFrame.prototype;
    const original = Object.getOwnPropertyDescriptor(proto, 'resolve')!;
    const resolve = original.value as HttpNetworkFrame['resolve'];
    Object.defineProperty(proto, 'resolve', {
      ...original,
      value: function (this: HttpNetworkFrame, ...args: Parameters<HttpNetworkFrame['resolve']>) {
        this.events.on('unhandledException', (event) => {
          if (!isInjected(event.error)) console.error(event.error);
        });
        return resolve.apply(this, args);
      },
    });
    restoreResolve = () => Object.defineProperty(proto, 'resolve', original);
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--quieted === 0) restoreResolve?.();
  };
}

/**
 * msw request handlers that answer `faults`' routes under its fault plan, and, last, one that
 * applies the unhandled-request policy to everything else. For a server you manage yourself;
 * `startMsw` manages one for a trial.
 */
export function mswHandlers(faults: HttpFaults, options: MswAdapterOptions = {}): HttpHandler[] {
  return handlersWith(faults, options, new ExchangeTracker(), undefined);
}

function handlersWith(
  faults: HttpFaults,
  options: MswAdapterOptions,
  tracker: ExchangeTracker,
  arrivals: ArrivalHolds | undefined,
): HttpHandler[] {
  return [
    ...faults.origins.map((o) => faultHandler(faults, o, tracker, arrivals)),
    unhandledHandler(faults, options.onUnhandledRequest ?? 'error'),
  ];
}

/** A running msw server for one trial. */
export interface MswSession {
  readonly server: SetupServer;
  /** Ends open exchanges as lost, stops the server and removes its interceptors. Idempotent. */
  close(): void;
}

/**
 * Starts an msw server for one trial: global `fetch` and node:http/https go through `faults`.
 * `close()` leaves nothing installed: the next request reaches the real network stack.
 *
 * @example
 * const session = startMsw(faults);
 * try { await clock.run(() => myTool(input)); } finally { session.close(); }
 */
export function startMsw(faults: HttpFaults, options: MswAdapterOptions = {}): MswSession {
  const trial = new TrialInterception(faults);
  const server = setupServer(...handlersWith(faults, options, trial.tracker, trial.arrivals));
  const loud = quietInjectedErrors();
  // For fetch, msw hands its lifecycle listeners a clone of every mocked answer, a tee of its
  // body that nobody reads. A client that stops reading a stream cancels its own branch, and
  // that cancel settles only once the other branch is cancelled too: let that one go at once.
  // Not for node:http: there the body is the interceptor's own copy of the parsed response
  // (`Readable.toWeb`), which it keeps pushing into after a cancel, and Node's adapter then
  // throws `Controller is already closed` out of the process.
  server.events.on('response:mocked', ({ request, response }) => {
    if (rawClientRequest(request) !== undefined) return;
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
      response.body?.cancel().catch(() => undefined);
  });
  // The last handler takes every request, so msw's own policy never applies.
  server.listen({ onUnhandledRequest: 'bypass' });
  trial.install();
  return {
    server,
    close(): void {
      if (!trial.close()) return;
      server.close();
      loud();
    },
  };
}

/**
 * Runs `body` as one trial on `clock` under msw: the server and virtual global timers are
 * installed around it and removed however it ends.
 *
 * @example
 * const run = await runWithMsw(faults, clock, () => createOrder({ clientReference: 'ref-1', ... }));
 */
export function runWithMsw<T>(
  faults: HttpFaults,
  clock: VirtualClock,
  body: () => Promise<T>,
  options: MswAdapterOptions & InterceptedRunOptions = {},
): Promise<ClockRun<T>> {
  return runIntercepted(clock, () => startMsw(faults, options), body, options);
}
