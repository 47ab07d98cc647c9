import type { Readable } from 'node:stream';
import nock from 'nock';
import { holdOn, type ClockRun, type VirtualClock } from '../../core/index.js';
import { redactHeaders, redactText } from '../../core/secretText.js';
import { fetchFailed, socketError, type HttpAnswer } from './HttpAnswer.js';
import type { HttpFaults } from './HttpFaults.js';
import { HTTP_METHODS } from './HttpRoute.js';
import type { ClientApi } from './ArrivalHolds.js';
import { TrialInterception } from './TrialInterception.js';
import { nodeStream } from './streamBodies.js';
import { runIntercepted, type InterceptedRunOptions } from './runIntercepted.js';
import { refusal, SDK_TELEMETRY, TELEMETRY_CODE, TELEMETRY_WHY } from './outboundGuard.js';
import { unhandledWarning, type UnhandledRequestPolicy } from './UnhandledRequestPolicy.js';

export interface NockAdapterOptions {
  /**
   * What happens to requests no route takes (default `error`): nock's own errors then name
   * them (`ERR_NOCK_NO_MATCH` on a faulted host, `ENETUNREACH` elsewhere); `warn` and
   * `bypass` let them through to the network.
   */
  readonly onUnhandledRequest?: UnhandledRequestPolicy;
}

type ReplyResult = readonly [number, string | Readable, Record<string, string>];

const never = (): Promise<never> => new Promise<never>(() => {});

function headersOf(raw: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** nock's `ERR_NOCK_NO_MATCH`, same code, status and layout, with secret headers and secret shapes redacted. */
function noMatch(method: string, url: string, headers: Record<string, string>, body: unknown): Error {
  const text =
    body === undefined || body === '' ? undefined : redactText(typeof body === 'string' ? body : JSON.stringify(body));
  const shown = JSON.stringify(
    { method, url: redactText(url), headers: redactHeaders(headers), ...(text !== undefined && { body: text }) },
    null,
    2,
  );
  return Object.assign(new Error(`Nock: No match for request ${shown}`), {
    code: 'ERR_NOCK_NO_MATCH',
    statusCode: 404,
    status: 404,
  });
}

/** What the client sees for `answer`: a status line, a socket error, or silence. */
function toNock(
  answer: HttpAnswer,
  via: ClientApi | undefined,
  hold: <T>(work: Promise<T>) => Promise<T>,
  pulled: () => void,
): Promise<ReplyResult> | ReplyResult {
  switch (answer.kind) {
    case 'respond':
      return [answer.status, answer.body, { ...answer.headers }];
    case 'network':
      // nock hands fetch the error as thrown: undici's own wraps the socket error (`TypeError: fetch failed`).
      throw via === 'fetch' ? fetchFailed(answer.code, answer.message) : socketError(answer.code, answer.message);
    case 'hang':
      return never();
    case 'stream':
      return [answer.status, nodeStream(answer, hold, pulled), { ...answer.headers }];
  }
}

/** A running nock interception for one trial. */
export interface NockSession {
  /** Ends open exchanges as lost, removes faultline's interceptors and restores node:http. Idempotent. */
  close(): void;
}

/**
 * Intercepts node:http/https requests to `faults`' hosts with nock for one trial, answering
 * them under its fault plan. nock cannot see a client give up on a request it never
 * answers; the wrapped `http.request` and `fetch` do, so a hang is recorded as lost when
 * the client closes the request (or its fetch rejects), else when the trial ends. `close()` leaves nothing
 * installed: `http.request` is Node's own again, and the next request reaches the network.
 *
 * @example
 * const session = startNock(faults);
 * try { await clock.run(() => tool(input)); } finally { session.close(); }
 */
export function startNock(faults: HttpFaults, options: NockAdapterOptions = {}): NockSession {
  const policy = options.onUnhandledRequest ?? 'error';
  const trial = new TrialInterception(faults);
  if (!nock.isActive()) nock.activate();
  if (policy === 'error') nock.disableNetConnect();
  else nock.enableNetConnect();
  const listeners = listenForNoMatch(faults, policy);
  // An SDK's own telemetry is answered before any route or policy sees it.
  const telemetry = SDK_TELEMETRY.map((t) => {
    const answer = refusal(t.method, `${t.origin}${t.path}`, TELEMETRY_WHY, TELEMETRY_CODE);
    return nock(t.origin, { allowUnmocked: true })
      .persist()
      .intercept(t.path, t.method)
      .reply(answer.status, answer.body, answer.headers);
  });
  const scopes = faults.origins.map((origin) => originScope(faults, origin, policy, trial));
  trial.install();

  return {
    close(): void {
      if (!trial.close()) return;
      for (const scope of [...telemetry, ...scopes]) scope.persist(false);
      nock.cleanAll();
      for (const listener of listeners) nock.emitter.removeListener('no match', listener);
      nock.enableNetConnect();
      // Leaves http.request and fetch as Node made them; the next trial activates nock again.
      nock.restore();
    },
  };
}

type NoMatchRequest = {
  method?: string;
  proto?: string;
  href?: string;
  path?: string;
  host?: string;
  hostname?: string;
};

/**
 * What nock is told to do with a request no scope intercepts, by policy: `warn` says so; `error` reports it to the
 * engine, and nock refuses it (net connect is off). The listeners added, for `close` to remove.
 */
function listenForNoMatch(faults: HttpFaults, policy: UnhandledRequestPolicy): ((req: NoMatchRequest) => void)[] {
  if (policy === 'warn') {
    const warn = (req: NoMatchRequest): void => {
      const url = req.href ?? `${req.host ?? req.hostname ?? ''}${req.path ?? ''}`;
      console.warn(unhandledWarning(req.method ?? 'GET', url, policy));
    };
    nock.emitter.on('no match', warn);
    return [warn];
  }
  if (policy !== 'error') return [];
  const refuse = (req: NoMatchRequest): void => {
    faults.refuseUnserved(
      req.method ?? 'GET',
      `${req.proto ?? 'https'}://${req.host ?? req.hostname ?? ''}${req.path ?? ''}`,
    );
  };
  nock.emitter.on('no match', refuse);
  return [refuse];
}

/** The persisted nock scope of one origin the engine serves: its routes answered under the plan, the rest refused. */
function originScope(
  faults: HttpFaults,
  origin: string,
  policy: UnhandledRequestPolicy,
  trial: TrialInterception,
): nock.Scope {
  const scope = nock(origin, { allowUnmocked: policy !== 'error' }).persist();
  for (const method of HTTP_METHODS) {
    scope
      .intercept((path: string) => faults.handles(method, `${origin}${path}`), method)
      .reply(async function (path: string, body: unknown) {
        const text = body === undefined || body === '' ? '' : typeof body === 'string' ? body : JSON.stringify(body);
        const url = `${origin}${path}`;
        const claim = trial.arrivals.claim(method, url);
        const answer = await faults.exchange(
          { method, url, headers: headersOf(this.req.headers), body: text },
          trial.tracker.track({ signal: claim.signal }),
        );
        if (!answer) return never();
        const letGo = answer.kind === 'hang' ? undefined : claim.answerOnItsWay();
        return toNock(answer, claim.via, holdOn(faults.clock), () => letGo?.());
      });
  }
  // nock's own no-match error prints the request's headers (an `Authorization: Bearer …`)
  // and body; this one says the same with the credentials redacted (R13).
  if (policy === 'error') {
    for (const method of HTTP_METHODS) {
      // Async: nock destroys the request with a rejection, whereas a synchronous throw escapes it.
      scope
        .intercept(() => true, method)
        .reply(async function (path: string, body: unknown) {
          faults.refuseUnserved(method, `${origin}${path}`);
          return Promise.reject(noMatch(method, `${origin}${path}`, headersOf(this.req.headers), body));
        });
    }
  }
  return scope;
}

/**
 * Runs `body` as one trial on `clock` under nock: interception and virtual global timers are
 * installed around it and removed however it ends.
 */
export function runWithNock<T>(
  faults: HttpFaults,
  clock: VirtualClock,
  body: () => Promise<T>,
  options: NockAdapterOptions & InterceptedRunOptions = {},
): Promise<ClockRun<T>> {
  return runIntercepted(clock, () => startNock(faults, options), body, options);
}
