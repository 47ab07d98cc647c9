import {
  FaultlineError,
  FaultlineErrorCode,
  IdSource,
  type Clock,
  type ErrorData,
  type History,
  type HttpFields,
  type Rng,
} from '../../core/index.js';
import { redactText } from '../../core/secretText.js';
import type { World } from '../../world/World.js';
import { EffectRecorder } from '../EffectRecorder.js';
import { isStreamFault, type Fault } from '../fault.js';
import type { NetworkLatency } from '../network.js';
import { FaultPlanSchema, type FaultPlan } from '../plan.js';
import { keepVersionsFor } from '../staleReads.js';
import { worldEntities } from '../worldEntities.js';
import { CallTracker } from './CallTracker.js';
import { errorDataOf } from './errorDataOf.js';
import { corrOf, isRead, legsOf, type Exchange } from './Exchange.js';
import { ExchangeFaults } from './ExchangeFaults.js';
import { onTheWire, type HttpAnswer } from './HttpAnswer.js';
import type { ErrorMapper, HttpRequestData, HttpRoute } from './HttpRoute.js';
import { pacedStream, STREAM_CUT_MESSAGE, type StreamEnd } from './pacedStream.js';
import { bodyDigest, requestEvent, trackedRequest } from './requestEvent.js';
import { responseDetail } from './responseDetail.js';
import { ServedRoutes } from './ServedRoutes.js';
import { gated, type AnswerGate } from './AnswerGate.js';
import type { UnservedRequest } from './UnservedRequest.js';

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
  /** Asked as each tool request's answer is about to go back (see `AnswerGate`). */
  readonly gate?: AnswerGate;
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
  readonly #routes: ServedRoutes;
  readonly #faults: ExchangeFaults;
  readonly #clock: Clock;
  readonly #history: History;
  readonly #ids = new IdSource();
  readonly #calls = new CallTracker();
  readonly #exchanges = new Map<string, Exchange>();
  /** Exchanges with no `response` recorded yet: a hang, a slow answer, work still under way. */
  readonly #open = new Map<string, Exchange>();
  /** Hangs whose client has not given up yet: settled when it does, or when the trial closes. */
  readonly #hanging = new Map<string, () => void>();
  /** Streams stalled by a `stream_stall`, and how far they got, for the trial's end to say so. */
  readonly #stalls = new Map<string, { readonly reason: string; readonly stream: { events: number; of: number } }>();
  readonly #network: NetworkLatency | undefined;
  readonly #gate: AnswerGate | undefined;
  readonly #unserved: UnservedRequest[] = [];
  #closed = false;

  constructor(options: HttpFaultsOptions) {
    const parsed = FaultPlanSchema.safeParse(options.plan);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first ? `plan.${first.path.map(String).join('.')}: ${first.message}` : 'plan is invalid';
      throw new FaultlineError(FaultlineErrorCode.PlanInvalid, `invalid fault plan: ${where}`, parsed.error.issues);
    }
    this.#routes = new ServedRoutes(options.services);
    const plan = parsed.data;
    this.#clock = options.clock;
    this.#history = options.history;
    const startMs = options.startMs ?? options.clock.now();
    this.#network = options.network;
    this.#gate = options.gate;
    keepVersionsFor(plan, options.world);
    const effects =
      options.world &&
      new EffectRecorder(options.world.ledger, options.history, (e) => {
        const origin = this.#exchanges.get(e.request);
        return origin ? { ...corrOf(origin), method: origin.http.method, url: origin.http.url } : {};
      });
    const { clock, rng, history, network, healAtMs } = options;
    const world = options.world;
    // Read when a `wrong_target` mistake needs them: the world as it stands then.
    const entities = world ? () => worldEntities(world.snapshot()) : undefined;
    this.#faults = new ExchangeFaults({
      plan,
      clock,
      rng,
      history,
      startMs,
      effects,
      network,
      healAtMs,
      ...(entities && { entities }),
    });
  }

  get clock(): Clock {
    return this.#clock;
  }

  /** The origins this engine serves (`https://api.shop.test`), for adapters that intercept by host. */
  get origins(): readonly string[] {
    return this.#routes.origins;
  }

  /**
   * A request no route takes, refused under the `error` unhandled-request policy: the adapters
   * report it here, and it is recorded (`unserved_request`) with what the trial does serve, so
   * that the trial's verdict can name it rather than the client's bare connection error.
   */
  refuseUnserved(method: string, url: string): void {
    if (this.#closed) return;
    const event = { method: method.toUpperCase(), url: redactText(url), ...this.#routes.servedNear(url) };
    this.#unserved.push(event);
    this.#history.record({ type: 'unserved_request', ...event });
  }

  /** The requests `refuseUnserved` was told of, in order. */
  get unserved(): readonly UnservedRequest[] {
    return this.#unserved;
  }

  /** Whether some route takes this request; adapters hand everything else to the unhandled-request policy. */
  handles(method: string, url: string): boolean {
    return this.#routes.route(method, url) !== undefined;
  }

  /**
   * Answers one request, or `undefined` when no route takes it. `signal` aborts when the
   * client gives up (its timeout, its abort) or the trial ends: a hang or a slow answer then
   * ends as a lost response at that virtual time.
   */
  async exchange(data: HttpRequestData, signal: AbortSignal): Promise<HttpAnswer | undefined> {
    const found = this.#routes.route(data.method, data.url);
    if (!found) return undefined;
    if (this.#gate?.fromAbandoned?.() === true) return { kind: 'hang', reason: 'sent by an abandoned agent start' };
    const { match, service } = found;
    const request = this.#ids.next('http');
    this.#gate?.arrived?.(request);
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
    const fault = this.#faults.choose(ex);
    let answer: HttpAnswer;
    try {
      if (legs && legs.request > 0) await this.#requestLeg(ex, legs.request, signal);
      answer = onTheWire(await this.#faults.apply(fault, ex, signal), data.method);
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
    answer = gated(this.#gate, answer, request, match.route);
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
      ...corrOf(ex),
      ...ex.http,
      ...legsOf(ex),
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
    this.#history.record({ type: 'model_error', error, request: ex.request, ...corrOf(ex) });
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

  #respond(ex: Exchange, answer: Extract<HttpAnswer, { kind: 'respond' | 'network' }>): void {
    this.#open.delete(ex.request);
    const base = {
      type: 'response',
      request: ex.request,
      tool: ex.match.route.operation,
      ...corrOf(ex),
      ...ex.http,
      ...legsOf(ex),
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
      answer.kind === 'respond' && (answer.status < 400 || (answer.status === 404 && isRead(ex))),
    );
    this.#modelError(ex, answer);
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
      ...corrOf(ex),
      ...ex.http,
      ...legsOf(ex),
    });
    this.#modelError(ex, { kind: 'hang', reason: message });
  }

  #modelError(ex: Exchange, answer: HttpAnswer): void {
    if (ex.match.route.kind !== 'model') return;
    const error = errorDataOf(answer, this.#clock.now());
    if (error) this.#history.record({ type: 'model_error', error, request: ex.request, ...corrOf(ex) });
  }
}

function reasonName(reason: unknown): string {
  if (reason instanceof Error || reason instanceof DOMException) return reason.name;
  return typeof reason === 'string' ? reason : 'aborted';
}
