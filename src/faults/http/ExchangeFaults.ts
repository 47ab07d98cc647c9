import type { Clock, History, NetworkLeg, Rng } from '../../core/index.js';
import { applyFault } from '../applyFault.js';
import { declaredOutput } from '../declaredOutput.js';
import type { EffectRecorder } from '../EffectRecorder.js';
import { isModelMistake, type Fault, type LieFault, type ModelMistake } from '../fault.js';
import { lieAbout, toldIfDifferent, type Told } from '../lies.js';
import { pickRule } from '../match.js';
import type { NetworkLatency } from '../network.js';
import type { FaultPlan } from '../plan.js';
import { errorAnswer } from './errorAnswer.js';
import { corrOf, isRead, type Exchange } from './Exchange.js';
import { answerOf, isAnswer, respond, truncate, type HttpAnswer } from './HttpAnswer.js';
import type { MistakeDraws, RouteRequest } from './HttpRoute.js';
import { parseRequestBody } from './requestBody.js';
import { asksForStream } from './sse.js';

/** What the plan's faults need of the trial: its clock, draws, history and the world's effects. */
export interface ExchangeFaultsOptions {
  readonly plan: FaultPlan;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly history: History;
  readonly startMs: number;
  readonly effects: EffectRecorder | undefined;
  readonly network: NetworkLatency | undefined;
  readonly healAtMs: number | undefined;
  /** The ids the world holds, for a model's `wrong_target` mistake (none: a world without services). */
  readonly entities?: () => readonly string[];
}

/**
 * What the fault plan does to one HTTP exchange: the rule it matches (recorded as `fault`), then the fault applied
 * around the route's own answer, each arrival at the route recorded as `delivery` with the effects it made, and a
 * lie recorded as `lie` when it differs from the truth.
 */
export class ExchangeFaults {
  readonly #o: ExchangeFaultsOptions;
  readonly #hits: number[];
  /** Draws for `wrong_value` lies: a fork of its own, so a lie never shifts which requests fail. */
  readonly #lieRng: Rng;
  /** Draws for the model's own mistakes: a fork made on first use, so a trial without them forks nothing new. */
  #mistakeRng: Rng | undefined;

  constructor(options: ExchangeFaultsOptions) {
    this.#o = options;
    this.#hits = options.plan.map(() => 0);
    this.#lieRng = options.rng.fork('lies');
  }

  /** The plan's fault for the exchange, if a rule matches it: counted and recorded. */
  choose(ex: Exchange): Fault | undefined {
    const { route } = ex.match;
    const { plan, clock, rng, history, startMs, healAtMs } = this.#o;
    const facts = {
      tool: route.operation,
      purpose: route.purpose ?? 'call',
      call: ex.position.callNumber,
      attempt: ex.position.attempt,
      elapsedMs: clock.now() - startMs,
      streamed:
        route.kind === 'model' && asksForStream(parseRequestBody(ex.data.body, ex.data.headers['content-type'])),
      read: (route.purpose ?? 'call') === 'status' || isRead(ex),
      model: route.kind === 'model',
    } as const;
    const picked = pickRule(plan, facts, this.#hits, rng, healAtMs);
    if (!picked) return undefined;
    this.#hits[picked.index] = (this.#hits[picked.index] ?? 0) + 1;
    history.record({
      type: 'fault',
      request: ex.request,
      tool: route.operation,
      rule: picked.index,
      fault: picked.rule.fault,
      ...corrOf(ex),
      ...ex.http,
    });
    return picked.rule.fault;
  }

  /** The exchange's answer under `fault` (none: delivered as asked). */
  apply(fault: Fault | undefined, ex: Exchange, signal: AbortSignal): Promise<HttpAnswer> {
    // On a model route, `truncated` is the model's answer cut as the provider cuts it, not a lie about a list.
    if (fault?.kind === 'truncated' && ex.match.route.kind === 'model') return this.#mistake(fault, ex);
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
        mistake: (fault) => this.#mistake(fault, ex),
      },
      this.#o.clock,
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
      asOf = this.#o.clock.now() - fault.lagMs;
      const past = jsonBodyOf(await this.#serve(ex, undefined, asOf));
      told = past === undefined ? { kind: 'none' } : toldIfDifferent(truth.value, past.value);
    } else told = lieAbout(fault, truth.value, this.#lieRng, declaredOutput(ex.match.route.outputSchema));
    if (told.kind === 'none') return held;
    const purpose = ex.match.route.purpose ?? 'call';
    this.#o.history.record({
      type: 'lie',
      request: ex.request,
      tool: ex.match.route.operation,
      purpose,
      fault,
      held: truth.value,
      answered: told.answered,
      ...(asOf === undefined ? {} : { asOf: asOf - this.#o.startMs }),
      ...corrOf(ex),
      ...ex.http,
    });
    return { ...held, body: told.answered === undefined ? '' : JSON.stringify(told.answered) };
  }

  /**
   * The model's own mistake: delivered to the model route, which answers wrong the way `fault`
   * says; recorded as a `lie` (what the model said, what the agent got) when it told anything.
   * A route that makes no mistakes answers as it would have.
   */
  async #mistake(fault: ModelMistake, ex: Exchange): Promise<HttpAnswer> {
    const { route } = ex.match;
    if (!route.mistake || !isModelMistake(fault)) return this.#deliver(ex, 0);
    const { history, clock } = this.#o;
    history.record({
      type: 'delivery',
      request: ex.request,
      tool: route.operation,
      copy: 0,
      ...corrOf(ex),
      ...ex.http,
    });
    const req = routeRequestOf(ex);
    this.#mistakeRng ??= this.#o.rng.fork('mistakes');
    const draws: MistakeDraws = { rng: this.#mistakeRng, entities: () => this.#o.entities?.() ?? [] };
    let made;
    try {
      made = await route.mistake(fault, route.input(req), { clock, request: ex.request }, draws);
    } catch (error) {
      return errorAnswer(error, req, [route.error, ex.service.error]);
    }
    if (made.kind === 'none') return this.#serve(ex);
    history.record({
      type: 'lie',
      request: ex.request,
      tool: route.operation,
      purpose: route.purpose ?? 'call',
      fault,
      held: made.held,
      answered: made.answered,
      ...corrOf(ex),
      ...ex.http,
    });
    return isAnswer(made.answer) ? made.answer : respond(route.okStatus ?? 200, made.answer);
  }

  /** One arrival at the service's business logic. */
  async #deliver(ex: Exchange, copy: number, failure?: Error): Promise<HttpAnswer> {
    const { route } = ex.match;
    this.#o.history.record({
      type: 'delivery',
      request: ex.request,
      tool: route.operation,
      copy,
      ...corrOf(ex),
      ...ex.http,
    });
    try {
      return await this.#serve(ex, failure);
    } finally {
      this.#o.effects?.recordNew();
    }
  }

  /** The route's answer to the exchange's request (as of `asOf`, for a stale read): no events. */
  async #serve(ex: Exchange, failure?: Error, asOf?: number): Promise<HttpAnswer> {
    const { route } = ex.match;
    const { network, clock } = this.#o;
    const target = ex.target;
    const ctx = {
      clock,
      request: ex.request,
      ...(network && target && { travel: (leg: NetworkLeg) => network.travel(clock, target, leg) }),
      ...(ex.http.idempotencyKey === undefined ? {} : { idempotencyKey: ex.http.idempotencyKey }),
      ...(failure ? { failure } : {}),
      ...(asOf === undefined ? {} : { asOf }),
    };
    const req = routeRequestOf(ex);
    try {
      const value: unknown = await route.serve(route.input(req), ctx);
      // A read that never consulted `failure` still fails the way the fault says.
      if (failure) return answerOf(failure);
      return isAnswer(value) ? value : respond(route.okStatus ?? 200, value === undefined ? null : value);
    } catch (error) {
      return errorAnswer(error, req, [route.error, ex.service.error]);
    }
  }
}

/** The exchange's request as a route reads it. */
function routeRequestOf(ex: Exchange): RouteRequest {
  const url = new URL(ex.data.url);
  return {
    method: ex.data.method.toUpperCase(),
    params: ex.match.params,
    query: url.searchParams,
    body: parseRequestBody(ex.data.body, ex.data.headers['content-type']),
    text: ex.data.body,
    headers: ex.data.headers,
  };
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
