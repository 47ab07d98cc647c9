import {
  FaultlineError,
  FaultlineErrorCode,
  IdSource,
  type Clock,
  type ErrorData,
  type History,
  type HttpFields,
  type NetworkLeg,
  type NetworkLegs,
  type Rng,
} from '../../core/index.js';
import type { World } from '../../world/World.js';
import { isStreamFault, type Fault, type LieFault } from '../fault.js';
import { lieAbout, toldIfDifferent, type Told } from '../lies.js';
import { declaredOutput } from '../declaredOutput.js';
import { keepVersionsFor } from '../staleReads.js';
import { applyFault } from '../applyFault.js';
import { EffectRecorder } from '../EffectRecorder.js';
import { pickRule } from '../match.js';
import type { LatencyTarget, LegDraws, NetworkLatency } from '../network.js';
import { FaultPlanSchema, type FaultPlan } from '../plan.js';
import { CallTracker, type CallPosition } from './CallTracker.js';
import { errorDataOf } from './errorDataOf.js';
import { bodyDigest, requestEvent, trackedRequest } from './requestEvent.js';
import { responseDetail } from './responseDetail.js';
import { errorAnswer } from './errorAnswer.js';
import { answerOf, isAnswer, onTheWire, respond, truncate, type HttpAnswer } from './HttpAnswer.js';
import {
  matchRoute,
  type ErrorMapper,
  type HttpRequestData,
  type HttpRoute,
  type RouteMatch,
  type RouteRequest,
} from './HttpRoute.js';
import { parseRequestBody } from './requestBody.js';
import { redactText } from '../../core/secretText.js';
import { asksForStream } from './sse.js';
import { pacedStream, STREAM_CUT_MESSAGE, type StreamEnd } from './pacedStream.js';

/** A faulted HTTP service: where it lives and what it answers. */
export interface HttpService {
  /** `https://api.shop.test` (a path, as in `https://host/v1`, prefixes every route). */
  readonly baseUrl: string;
  readonly routes: readonly HttpRoute[];
  /** The API's own shape for business errors any route throws (a route's own `error` is tried first). */
  readonly error?: ErrorMapper;
  /** The world service these routes serve, as a scenario's `network.services` names it (none: a model API, say). */
  readonly name?: string;
}

export interface HttpFaultsOptions {
  readonly services: readonly HttpService[];
  readonly plan: FaultPlan;
  readonly clock: Clock;
  /** Give it a fork of its own (`rng.fork('http')`), so draws elsewhere never shift which requests fail. */
  readonly rng: Rng;
  readonly history: History;
  /** The world whose ledger effects are recorded under the request that made them. */
  readonly world?: World;
  /** Virtual ms since the epoch when the trial began: the origin of `from`/`to` windows (default: now). */
  readonly startMs?: number;
  /**
   * Network latency on the virtual clock (drawing from its own rng fork): the request leg delays
   * the delivery, the response leg the answer's arrival. Model routes have none; a service's
   * own level needs its `name`.
   */
  readonly network?: NetworkLatency;
  /** Virtual ms after `startMs` from which no rule of `plan` matches (a scenario's `heal.atMs`). */
  readonly healAtMs?: number;
}

/** A service as the engine looks requests up in it. */
/** A request no route of the trial serves (see `HttpFaults.refuseUnserved`). */
export interface UnservedRequest {
  readonly method: string;
  readonly url: string;
  readonly served: readonly string[];
  /** Whether `served` lists routes at the request's origin (else: the origins served). */
  readonly servedHere: boolean;
}

interface ServedService {
  readonly origin: string;
  readonly prefix: string;
  readonly routes: readonly HttpRoute[];
  readonly error: ErrorMapper | undefined;
  readonly name: string | undefined;
}

/** One request on its way through: its ids and what went over the wire. */
interface Exchange {
  readonly request: string;
  readonly match: RouteMatch;
  readonly service: ServedService;
  readonly data: HttpRequestData;
  readonly position: CallPosition;
  readonly http: HttpFields;
  readonly sentAt: number;
  /** The legs drawn for it, with a network. */
  readonly legs: LegDraws | undefined;
  readonly target: LatencyTarget | undefined;
  /** An answer was produced and sent back (it may be lost on its way): its response leg counts. */
  sentBack: boolean;
}

/**
 * The in-process wire's HTTP twin: maps each intercepted request to a route (an operation a
 * fault plan names as `tool`), picks the plan's fault for it, and answers the way a real
 * server under that fault would (status, headers, body, a dropped connection, or silence).
 * It records an `http_request` event as each request arrives (its logical call and attempt
 * from `CallTracker`), then `fault`, `delivery`, `effect` and `response` events with the
 * method, URL and `Idempotency-Key`, and `model_error` for model endpoints (R3). The msw and nock adapters
 * are thin shells around it.
 */
export class HttpFaults {
  readonly #services: readonly ServedService[];
  readonly #plan: FaultPlan;
  readonly #hits: number[];
  readonly #clock: Clock;
  readonly #rng: Rng;
  readonly #history: History;
  readonly #startMs: number;
  readonly #ids = new IdSource();
  readonly #calls = new CallTracker();
  readonly #exchanges = new Map<string, Exchange>();
  /** Exchanges with no `response` recorded yet: a hang, a slow answer, work still under way. */
  readonly #open = new Map<string, Exchange>();
  /** Hangs whose client has not given up yet: settled when it does, or when the trial closes. */
  readonly #hanging = new Map<string, () => void>();
  /** Streams stalled by a `stream_stall`, and how far they got, for the trial's end to say so. */
  readonly #stalls = new Map<string, { readonly reason: string; readonly stream: { events: number; of: number } }>();
  readonly #effects: EffectRecorder | undefined;
  readonly #network: NetworkLatency | undefined;
  readonly #healAtMs: number | undefined;
  readonly #unserved: UnservedRequest[] = [];
  /** Draws for `wrong_value` lies: a fork of its own, so a lie never shifts which requests fail. */
  readonly #lieRng: Rng;
  #closed = false;

  constructor(options: HttpFaultsOptions) {
    const parsed = FaultPlanSchema.safeParse(options.plan);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first ? `plan.${first.path.map(String).join('.')}: ${first.message}` : 'plan is invalid';
      throw new FaultlineError(FaultlineErrorCode.PlanInvalid, `invalid fault plan: ${where}`, parsed.error.issues);
    }
    this.#services = options.services.map((s) => {
      const url = new URL(s.baseUrl);
      return {
        origin: url.origin,
        prefix: url.pathname.replace(/\/+$/, ''),
        routes: s.routes,
        error: s.error,
        name: s.name,
      };
    });
    this.#plan = parsed.data;
    this.#hits = this.#plan.map(() => 0);
    this.#clock = options.clock;
    this.#rng = options.rng;
    this.#history = options.history;
    this.#startMs = options.startMs ?? options.clock.now();
    this.#network = options.network;
    this.#lieRng = options.rng.fork('lies');
    keepVersionsFor(this.#plan, options.world);
    this.#healAtMs = options.healAtMs;
    this.#effects =
      options.world &&
      new EffectRecorder(options.world.ledger, options.history, (e) => {
        const origin = this.#exchanges.get(e.request);
        return origin ? { ...this.#corr(origin), method: origin.http.method, url: origin.http.url } : {};
      });
  }

  get clock(): Clock {
    return this.#clock;
  }

  /** The origins this engine serves (`https://api.shop.test`), for adapters that intercept by host. */
  get origins(): readonly string[] {
    return [...new Set(this.#services.map((s) => s.origin))];
  }

  /**
   * A request no route takes, refused under the `error` unhandled-request policy: the adapters
   * report it here, and it is recorded (`unserved_request`) with what the trial does serve, so
   * that the trial's verdict can name it rather than the client's bare connection error.
   */
  refuseUnserved(method: string, url: string): void {
    if (this.#closed) return;
    const event = { method: method.toUpperCase(), url: redactText(url), ...this.#servedNear(url) };
    this.#unserved.push(event);
    this.#history.record({ type: 'unserved_request', ...event });
  }

  /** The requests `refuseUnserved` was told of, in order. */
  get unserved(): readonly UnservedRequest[] {
    return this.#unserved;
  }

  /** The routes served at `url`'s origin, or, when none is, the origins served. */
  #servedNear(url: string): { served: string[]; servedHere: boolean } {
    const origin = URL.canParse(url) ? new URL(url).origin : url;
    const here = this.#services.filter((s) => s.origin === origin);
    if (here.length === 0) return { served: [...this.origins], servedHere: false };
    return {
      served: here.flatMap((s) => s.routes.map((r) => `${r.method} ${s.origin}${s.prefix}${r.path} (${r.operation})`)),
      servedHere: true,
    };
  }

  /** Whether some route takes this request; adapters hand everything else to the unhandled-request policy. */
  handles(method: string, url: string): boolean {
    return this.#route(method, url) !== undefined;
  }

  /**
   * Answers one request, or `undefined` when no route takes it. `signal` aborts when the
   * client gives up (its timeout, its abort) or the trial ends: a hang or a slow answer then
   * ends as a lost response at that virtual time.
   */
  async exchange(data: HttpRequestData, signal: AbortSignal): Promise<HttpAnswer | undefined> {
    const found = this.#route(data.method, data.url);
    if (!found) return undefined;
    const { match, service } = found;
    const request = this.#ids.next('http');
    const key = data.headers['idempotency-key'];
    const http: HttpFields = {
      method: data.method.toUpperCase(),
      url: data.url,
      ...(key === undefined ? {} : { idempotencyKey: key }),
    };
    const digest = bodyDigest(data);
    const position = this.#calls.place(trackedRequest(data, match.route, digest));
    // A model API's latency is not the network's to add: its answers are scripted or recorded.
    const target =
      this.#network && match.route.kind !== 'model'
        ? {
            ...(service.name !== undefined && { service: service.name }),
            tool: match.route.operation,
            route: `${match.route.method} ${match.route.path}`,
          }
        : undefined;
    const legs = target && this.#network?.draw(target);
    const ex: Exchange = {
      request,
      match,
      service,
      data,
      position,
      http,
      sentAt: this.#clock.now(),
      legs,
      target,
      sentBack: false,
    };
    this.#exchanges.set(request, ex);
    this.#open.set(request, ex);
    this.#history.record(requestEvent(request, data, match.route, position, digest));
    const fault = this.#chooseFault(ex);
    let answer: HttpAnswer;
    try {
      if (legs && legs.request > 0) await this.#requestLeg(ex, legs.request, signal);
      answer = onTheWire(await this.#apply(fault, ex, signal), data.method);
      if (answer.kind !== 'hang') {
        ex.sentBack = true;
        if (legs && legs.response > 0) await this.#clock.sleep(legs.response, signal);
      }
    } catch {
      // Only an aborted sleep rejects (a latency fault, the response leg): the client left while the answer was on its way.
      answer = { kind: 'hang', reason: 'answer on its way' };
    }
    // Closed meanwhile: the trial's end already recorded this exchange as lost.
    if (!this.#open.has(request)) return { kind: 'hang', reason: 'the trial ended' };
    if (answer.kind === 'stream') return this.#stream(ex, answer, fault, signal);
    if (answer.kind === 'hang') this.#awaitGiveUp(ex, answer, signal);
    else this.#respond(ex, answer);
    return answer;
  }

  /** A streamed answer goes out event by event; its `response` is recorded once the client has seen how it ends. */
  #stream(
    ex: Exchange,
    answer: Extract<HttpAnswer, { kind: 'stream' }>,
    fault: Fault | undefined,
    signal: AbortSignal,
  ): HttpAnswer {
    const body = pacedStream(
      answer.events,
      fault && isStreamFault(fault) ? fault : undefined,
      this.#clock,
      signal,
      (end) => this.#streamEnded(ex, answer, end),
      (events) =>
        this.#stalls.set(ex.request, {
          reason: `the stream stalled after ${events} of ${answer.events.length} events (stream_stall)`,
          stream: { events, of: answer.events.length },
        }),
    );
    return { ...answer, body };
  }

  #streamEnded(ex: Exchange, answer: Extract<HttpAnswer, { kind: 'stream' }>, end: StreamEnd): void {
    this.#stalls.delete(ex.request);
    if (!this.#open.has(ex.request)) return;
    const stream = { events: end.events, of: end.of };
    if (end.kind === 'stalled' || end.kind === 'left') {
      const reason =
        end.kind === 'stalled'
          ? `the stream stalled after ${end.events} of ${end.of} events (stream_stall)`
          : `the client stopped reading after ${end.events} of ${end.of} events`;
      this.#lose(ex, reason, end.reason, stream);
      return;
    }
    this.#open.delete(ex.request);
    const base = {
      type: 'response',
      request: ex.request,
      tool: ex.match.route.operation,
      status: answer.status,
      stream,
      ...this.#corr(ex),
      ...ex.http,
      ...this.#legsOf(ex),
    } as const;
    if (end.kind === 'complete') {
      const usage = ex.match.route.usage?.ofStream(answer.events);
      this.#history.record({ ...base, result: 'ok', ...(usage ? { usage } : {}) });
      this.#calls.answered(ex.position.call, true);
      return;
    }
    const error: ErrorData =
      end.kind === 'cut'
        ? {
            kind: 'network',
            message: `${STREAM_CUT_MESSAGE} after ${end.events} of ${end.of} events (stream_cut)`,
            retryable: true,
            code: 'ECONNRESET',
          }
        : {
            kind: 'unknown',
            message: `event ${end.at} of ${end.of} arrived malformed, not valid JSON (stream_malformed)`,
            retryable: false,
          };
    this.#history.record({ ...base, result: 'error', message: error.message, errorKind: error.kind });
    this.#calls.answered(ex.position.call, false);
    this.#history.record({ type: 'model_error', error, request: ex.request, ...this.#corr(ex) });
  }

  /** Records every exchange still open as lost (the trial is over); idempotent. */
  close(): void {
    this.#closed = true;
    for (const end of [...this.#hanging.values()]) end();
    for (const ex of [...this.#open.values()]) {
      const stall = this.#stalls.get(ex.request);
      this.#lose(ex, stall?.reason ?? 'answer still on its way', undefined, stall?.stream);
    }
  }

  #route(method: string, url: string): { readonly match: RouteMatch; readonly service: ServedService } | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    for (const s of this.#services) {
      if (parsed.origin !== s.origin) continue;
      if (s.prefix !== '' && parsed.pathname !== s.prefix && !parsed.pathname.startsWith(`${s.prefix}/`)) continue;
      const match = matchRoute(s.routes, method, parsed.pathname.slice(s.prefix.length) || '/');
      if (match) return { match, service: s };
    }
    return undefined;
  }

  #chooseFault(ex: Exchange): Fault | undefined {
    const { route } = ex.match;
    const facts = {
      tool: route.operation,
      purpose: route.purpose ?? 'call',
      call: ex.position.callNumber,
      attempt: ex.position.attempt,
      elapsedMs: this.#clock.now() - this.#startMs,
      streamed:
        route.kind === 'model' && asksForStream(parseRequestBody(ex.data.body, ex.data.headers['content-type'])),
      read: (route.purpose ?? 'call') === 'status' || this.#isRead(ex),
    } as const;
    const picked = pickRule(this.#plan, facts, this.#hits, this.#rng, this.#healAtMs);
    if (!picked) return undefined;
    this.#hits[picked.index] = (this.#hits[picked.index] ?? 0) + 1;
    this.#history.record({
      type: 'fault',
      request: ex.request,
      tool: route.operation,
      rule: picked.index,
      fault: picked.rule.fault,
      ...this.#corr(ex),
      ...ex.http,
    });
    return picked.rule.fault;
  }

  /**
   * The request on its way: it arrives whatever the client does meanwhile (R18), but a client
   * that gives up during it is recorded as having done so then.
   */
  async #requestLeg(ex: Exchange, ms: number, signal: AbortSignal): Promise<void> {
    const gaveUp = (): void => this.#lose(ex, 'request on its way', signal.reason);
    if (signal.aborted) gaveUp();
    else signal.addEventListener('abort', gaveUp, { once: true });
    try {
      await this.#clock.sleep(ms);
    } finally {
      signal.removeEventListener('abort', gaveUp);
    }
  }

  #legsOf(ex: Exchange): { legs?: NetworkLegs } {
    if (!ex.legs) return {};
    return { legs: ex.sentBack ? ex.legs : { request: ex.legs.request } };
  }

  #corr(ex: Exchange): { call: string; attempt: number } {
    return { call: ex.position.call, attempt: ex.position.attempt };
  }

  #apply(fault: Fault | undefined, ex: Exchange, signal: AbortSignal): Promise<HttpAnswer> {
    return applyFault<HttpAnswer>(
      fault,
      {
        deliver: (copy, failure) => this.#deliver(ex, copy, failure),
        lost: (cause) => ({
          kind: 'hang',
          reason: cause === 'timeout' ? 'no answer (timeout fault)' : 'answer lost after commit (partial write)',
        }),
        error: (error) => answerOf(error),
        malformed: (answer) => (answer.kind === 'respond' && answer.status < 400 ? truncate(answer) : answer),
        lie: (fault) => this.#lie(fault, ex),
      },
      this.#clock,
      signal,
    );
  }

  /**
   * A delivery answered 2xx with a lie about its JSON body: the truth first, then the lie; a
   * `stale` read is served again as of `lagMs` ago. Recorded as a `lie` event when it differs.
   */
  async #lie(fault: LieFault, ex: Exchange): Promise<HttpAnswer> {
    const held = await this.#deliver(ex, 0);
    const truth = jsonBodyOf(held);
    if (held.kind !== 'respond' || truth === undefined) return held;
    let told: Told;
    let asOf: number | undefined;
    if (fault.kind === 'stale') {
      asOf = this.#clock.now() - fault.lagMs;
      const past = jsonBodyOf(await this.#serve(ex, undefined, asOf));
      told = past === undefined ? { kind: 'none' } : toldIfDifferent(truth.value, past.value);
    } else told = lieAbout(fault, truth.value, this.#lieRng, declaredOutput(ex.match.route.outputSchema));
    if (told.kind === 'none') return held;
    const purpose = ex.match.route.purpose ?? 'call';
    this.#history.record({
      type: 'lie',
      request: ex.request,
      tool: ex.match.route.operation,
      purpose,
      fault,
      held: truth.value,
      answered: told.answered,
      ...(asOf === undefined ? {} : { asOf: asOf - this.#startMs }),
      ...this.#corr(ex),
      ...ex.http,
    });
    return { ...held, body: told.answered === undefined ? '' : JSON.stringify(told.answered) };
  }

  /** One arrival at the service's business logic. */
  async #deliver(ex: Exchange, copy: number, failure?: Error): Promise<HttpAnswer> {
    const { route } = ex.match;
    this.#history.record({
      type: 'delivery',
      request: ex.request,
      tool: route.operation,
      copy,
      ...this.#corr(ex),
      ...ex.http,
    });
    try {
      return await this.#serve(ex, failure);
    } finally {
      this.#effects?.recordNew();
    }
  }

  /** The route's answer to the exchange's request (as of `asOf`, for a stale read): no events. */
  async #serve(ex: Exchange, failure?: Error, asOf?: number): Promise<HttpAnswer> {
    const { route, params } = ex.match;
    const url = new URL(ex.data.url);
    const network = this.#network;
    const target = ex.target;
    const ctx = {
      clock: this.#clock,
      request: ex.request,
      ...(network && target && { travel: (leg: NetworkLeg) => network.travel(this.#clock, target, leg) }),
      ...(ex.http.idempotencyKey === undefined ? {} : { idempotencyKey: ex.http.idempotencyKey }),
      ...(failure ? { failure } : {}),
      ...(asOf === undefined ? {} : { asOf }),
    };
    const req: RouteRequest = {
      method: ex.data.method.toUpperCase(),
      params,
      query: url.searchParams,
      body: parseRequestBody(ex.data.body, ex.data.headers['content-type']),
      text: ex.data.body,
      headers: ex.data.headers,
    };
    try {
      const value: unknown = await route.serve(route.input(req), ctx);
      // A read that never consulted `failure` still fails the way the fault says.
      if (failure) return answerOf(failure);
      return isAnswer(value) ? value : respond(route.okStatus ?? 200, value === undefined ? null : value);
    } catch (error) {
      return errorAnswer(error, req, [route.error, ex.service.error]);
    }
  }

  #respond(ex: Exchange, answer: Extract<HttpAnswer, { kind: 'respond' | 'network' }>): void {
    this.#open.delete(ex.request);
    const base = {
      type: 'response',
      request: ex.request,
      tool: ex.match.route.operation,
      ...this.#corr(ex),
      ...ex.http,
      ...this.#legsOf(ex),
    } as const;
    const detail = responseDetail(answer, this.#clock.now());
    if (answer.kind === 'network') {
      this.#history.record({ ...base, result: 'error', ...detail, message: `${answer.code}: ${answer.message}` });
    } else {
      const failed = answer.status >= 400;
      // A model answer's token counts ride on its response event (R31).
      const usage = ex.match.route.kind === 'model' && !failed ? ex.match.route.usage?.of(answer.body) : undefined;
      this.#history.record({
        ...base,
        result: failed ? 'error' : 'ok',
        status: answer.status,
        ...detail,
        ...(usage ? { usage } : {}),
      });
    }
    this.#calls.answered(
      ex.position.call,
      answer.kind === 'respond' && (answer.status < 400 || (answer.status === 404 && this.#isRead(ex))),
    );
    this.#modelError(ex, answer);
  }

  /** A read settles with a 404 as with a 200: asking again is polling for the resource, a new call, not attempt n + 1. */
  #isRead(ex: Exchange): boolean {
    const risk = ex.match.route.risk;
    return risk === undefined ? ex.http.method === 'GET' || ex.http.method === 'HEAD' : risk === 'read';
  }

  /** The client's wait ends only when it gives up (or the trial ends): that is when the answer is lost. */
  #awaitGiveUp(ex: Exchange, answer: Extract<HttpAnswer, { kind: 'hang' }>, signal: AbortSignal): void {
    const end = (): void => {
      signal.removeEventListener('abort', end);
      this.#hanging.delete(ex.request);
      this.#lose(ex, answer.reason, signal.reason);
    };
    if (signal.aborted) return end();
    this.#hanging.set(ex.request, end);
    signal.addEventListener('abort', end, { once: true });
  }

  #lose(ex: Exchange, reason: string, abortReason?: unknown, stream?: { events: number; of: number }): void {
    if (!this.#open.delete(ex.request)) return;
    const waited = this.#clock.now() - ex.sentAt;
    const why = this.#closed
      ? `no answer by the end of the trial (${waited} ms)`
      : `the client gave up after ${waited} ms (${reasonName(abortReason)})`;
    const message = `${reason}: ${why}`;
    this.#history.record({
      type: 'response',
      request: ex.request,
      tool: ex.match.route.operation,
      result: 'lost',
      message,
      ...(stream ? { stream } : {}),
      ...this.#corr(ex),
      ...ex.http,
      ...this.#legsOf(ex),
    });
    this.#modelError(ex, { kind: 'hang', reason: message });
  }

  #modelError(ex: Exchange, answer: HttpAnswer): void {
    if (ex.match.route.kind !== 'model') return;
    const error = errorDataOf(answer, this.#clock.now());
    if (error) this.#history.record({ type: 'model_error', error, request: ex.request, ...this.#corr(ex) });
  }
}

/** A successful JSON answer's body, parsed; anything else (an error, text, a stream) is told no lie. */
function jsonBodyOf(answer: HttpAnswer): { readonly value: unknown } | undefined {
  if (answer.kind !== 'respond' || answer.status < 200 || answer.status > 299) return undefined;
  if (!(answer.headers['content-type'] ?? '').includes('json')) return undefined;
  try {
    return { value: JSON.parse(answer.body) as unknown };
  } catch {
    return undefined;
  }
}

function reasonName(reason: unknown): string {
  if (reason instanceof Error || reason instanceof DOMException) return reason.name;
  return typeof reason === 'string' ? reason : 'aborted';
}
