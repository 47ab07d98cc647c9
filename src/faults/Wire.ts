import {
  FaultlineError,
  FaultlineErrorCode,
  HttpError,
  stackless,
  type Clock,
  type History,
  type NetworkLeg,
  type NetworkLegs,
  type Rng,
  type ToolContract,
  type Transport,
  type WireRequest,
} from '../core/index.js';
import type { ToolContext, ToolSpec } from '../world/tool.js';
import type { World } from '../world/World.js';
import { raceAbort, sleepRelayed, untilAborted } from './abort.js';
import type { Fault, LieFault } from './fault.js';
import { lieAbout, toldIfDifferent, type Told } from './lies.js';
import { declaredOutput } from './declaredOutput.js';
import { keepVersionsFor } from './staleReads.js';
import { applyFault } from './applyFault.js';
import { EffectRecorder } from './EffectRecorder.js';
import { malformedError } from './faultError.js';
import { pickRule, type RequestFacts } from './match.js';
import { FaultPlanSchema, type FaultPlan } from './plan.js';
import { safeParseOnce } from '../core/parseOnce.js';
import { extraHops, hopSeam } from '../core/extraHops.js';
import type { LatencyTarget, LegDraws, NetworkLatency } from './network.js';
import type { Mutable } from '../core/Mutable.js';
import { contractOf } from './contractOf.js';
import { deliveryEvent } from './deliveryEvent.js';
import type { Answer, Reply } from './reply.js';
import { responseEvent } from './responseEvent.js';
import { asServerError, overTheWire, serveRequest } from './serveRequest.js';

export interface WireOptions {
  readonly world: World;
  /** The tools the wire serves (default: every tool of `world`). */
  readonly tools?: readonly ToolSpec[];
  readonly plan: FaultPlan;
  readonly clock: Clock;
  /**
   * Where `probability` draws come from. Give the wire a fork of its own (`rng.fork('faults')`)
   * so that draws elsewhere in the trial (jitter, the agent) never shift which requests fail.
   */
  readonly rng: Rng;
  readonly history: History;
  /** Virtual ms since the epoch when the trial began: the origin of `from`/`to` windows. */
  readonly startMs: number;
  /** A request for a tool nobody serves: `'error'` answers 404 (the only policy so far). */
  readonly unknownTool?: 'error';
  /**
   * The scenario's network latency (drawing from its own rng fork): the request leg delays the
   * delivery, the response leg the answer's arrival. Without it every leg is instantaneous.
   */
  readonly network?: NetworkLatency;
  /** Virtual ms after `startMs` from which no rule of `plan` matches (a scenario's `heal.atMs`). */
  readonly healAtMs?: number;
}

/**
 * The nemesis between the caller and the world: a `Transport` that applies a fault plan to
 * every request and records what happened (`fault`, `delivery`, `effect`, `response`).
 *
 * Faults are chosen when the request leaves the caller; server-side work (input validation,
 * the tool's logic, status queries) happens only at delivery, so a fault that is never
 * delivered (a timeout, a 429) answers the same whatever the input, and a request the
 * service rejects with 400 still consumed its fault. An abort only stops the caller
 * waiting: a delivery already under way still runs and commits (R18).
 */
export class Wire implements Transport {
  readonly tools: readonly ToolContract[];
  /** A send's signal is read only until the send settles; every listener it adds is removed by then, or it fired. */
  readonly releasesSignal = true;
  readonly #world: World;
  readonly #specs: ReadonlyMap<string, ToolSpec>;
  readonly #plan: FaultPlan;
  readonly #hits: number[];
  readonly #clock: Clock;
  readonly #rng: Rng;
  readonly #history: History;
  readonly #startMs: number;
  /** Per tool, the 1-based number of each distinct logical call seen so far. */
  readonly #callNumbers = new Map<string, Map<string, number>>();
  /** Every request seen, so effects can be tied back to their call and attempt. */
  readonly #requests = new Map<string, WireRequest>();
  readonly #effects: EffectRecorder;
  readonly #network: NetworkLatency | undefined;
  /** Each tool's service, by tool name: a network level names services. */
  readonly #serviceOf = new Map<string, string>();
  /** Draws for `wrong_value` lies: a fork of its own, so a lie never shifts which requests fail. */
  readonly #lieRng: Rng;
  readonly #healAtMs: number | undefined;
  /** Per tool, what its requests travel through: built once, so the network finds its legs by identity. */
  readonly #targets = new Map<string, LatencyTarget>();
  /** Per tool, `ctx.travel`: one closure per tool, not one per delivery. */
  readonly #travels = new Map<string, (leg: NetworkLeg) => Promise<void>>();

  constructor(options: WireOptions) {
    const parsed = safeParseOnce(FaultPlanSchema, options.plan);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first ? `plan.${first.path.map(String).join('.')}: ${first.message}` : 'plan is invalid';
      throw new FaultlineError(FaultlineErrorCode.PlanInvalid, `invalid fault plan: ${where}`, parsed.error.issues);
    }
    const specs = options.tools ?? options.world.tools;
    this.#world = options.world;
    this.#specs = new Map(specs.map((t) => [t.name, t]));
    this.tools = specs.map(contractOf);
    this.#plan = parsed.data;
    this.#hits = this.#plan.map(() => 0);
    this.#clock = options.clock;
    this.#rng = options.rng;
    this.#history = options.history;
    this.#startMs = options.startMs;
    this.#network = options.network;
    this.#lieRng = options.rng.fork('lies');
    keepVersionsFor(this.#plan, options.world);
    this.#healAtMs = options.healAtMs;
    for (const service of options.world.services)
      for (const t of service.tools) this.#serviceOf.set(t.name, service.name);
    this.#effects = new EffectRecorder(options.world.ledger, options.history, (e) => {
      const origin = this.#requests.get(e.request);
      return origin ? { call: origin.call, attempt: origin.attempt } : {};
    });
  }

  async send(req: WireRequest, signal?: AbortSignal): Promise<unknown> {
    if (hopSeam.at) await extraHops('wire:send');
    this.#requests.set(req.request, req);
    if (signal?.aborted) {
      this.#respond(req, { kind: 'lost', message: 'aborted before sending' });
      throw signal.reason;
    }
    const tool = this.#specs.get(req.tool);
    if (!tool) {
      const message = `Unknown tool "${req.tool}"`;
      return this.#finish(
        req,
        {
          kind: 'error',
          error: stackless(() => new HttpError(404, message, { error: { type: 'not_found_error', message } })),
        },
        signal,
      );
    }
    const fault = this.#chooseFault(req);
    const legs = this.#network?.draw(this.#target(req.tool));
    const work = legs ? this.#travel(fault, tool, req, signal, legs) : this.#apply(fault, tool, req, signal);
    let reply: Reply;
    try {
      reply = await raceAbort(work, signal);
    } catch (reason) {
      if (hopSeam.at) await extraHops('wire:aborted');
      // Gone while the request or the answer travelled, or the service worked: what was delivered stays delivered (R18).
      this.#respond(req, { kind: 'lost', message: 'caller aborted' }, legs);
      throw reason;
    }
    return this.#finish(req, reply, signal, legs && (reply.kind === 'lost' ? { request: legs.request } : legs));
  }

  /**
   * The round trip with latency: the request leg, then the fault and the delivery, then the
   * answer's leg back. The request leg ignores `signal`: a request already on its way arrives
   * and commits even if its caller stops waiting; only the wait for the answer is abortable.
   */
  async #travel(
    fault: Fault | undefined,
    tool: ToolSpec,
    req: WireRequest,
    signal: AbortSignal | undefined,
    legs: LegDraws,
  ): Promise<Reply> {
    if (legs.request > 0) await this.#clock.sleep(legs.request);
    const reply = await this.#apply(fault, tool, req, signal);
    // The send's race holds the signal's relay by now (a reused signal): the leg's abort listener is its second hook.
    if (reply.kind !== 'lost' && legs.response > 0) await sleepRelayed(this.#clock, legs.response, signal);
    return reply;
  }

  #target(tool: string): LatencyTarget {
    let target = this.#targets.get(tool);
    if (!target) {
      const service = this.#serviceOf.get(tool);
      this.#targets.set(tool, (target = service === undefined ? { tool } : { service, tool }));
    }
    return target;
  }

  #chooseFault(req: WireRequest): Fault | undefined {
    // No rule to match (a crowd, a fault-free trial): the facts, and the call numbering only they read, would be built
    // for nothing. A plan never changes after the wire is made, so the numbering is never needed later either.
    if (this.#plan.length === 0) return undefined;
    const picked = pickRule(this.#plan, this.#facts(req), this.#hits, this.#rng, this.#healAtMs);
    if (!picked) return undefined;
    this.#hits[picked.index] = (this.#hits[picked.index] ?? 0) + 1;
    this.#history.stamp({
      seq: 0,
      t: 0,
      type: 'fault',
      request: req.request,
      tool: req.tool,
      rule: picked.index,
      fault: picked.rule.fault,
      call: req.call,
      attempt: req.attempt,
    });
    return picked.rule.fault;
  }

  #facts(req: WireRequest): RequestFacts {
    let calls = this.#callNumbers.get(req.tool);
    if (!calls) this.#callNumbers.set(req.tool, (calls = new Map()));
    let call = calls.get(req.call);
    if (call === undefined) calls.set(req.call, (call = calls.size + 1));
    const read = req.purpose === 'status' || this.#specs.get(req.tool)?.risk === 'read';
    return {
      tool: req.tool,
      purpose: req.purpose,
      call,
      attempt: req.attempt,
      elapsedMs: this.#clock.now() - this.#startMs,
      read,
    };
  }

  /** Never rejects but through `signal` (a latency sleep): every answer is a value. */
  #apply(fault: Fault | undefined, tool: ToolSpec, req: WireRequest, signal: AbortSignal | undefined): Promise<Reply> {
    // No fault (every delivery of a crowd, of a fault-free trial): the delivery's own promise, no applyFault around it.
    if (!fault) return this.#deliver(tool, req, 0);
    return applyFault<Reply>(
      fault,
      {
        deliver: (copy, failure) => this.#deliver(tool, req, copy, failure),
        lost: (cause) => ({
          kind: 'lost',
          message: cause === 'timeout' ? 'no answer (timeout)' : 'answer lost after delivery (partial write)',
        }),
        error: (error) => ({ kind: 'error', error }),
        malformed: (answer) => (answer.kind === 'ok' ? { kind: 'error', error: malformedError() } : answer),
        lie: (fault) => this.#lie(fault, tool, req),
      },
      this.#clock,
      signal,
    );
  }

  /**
   * A delivery answered 2xx with a lie: the truth first (as the service answers it now), then
   * the lie told about it; a `stale` read asks the service again as of `lagMs` ago. Recorded
   * as a `lie` event when the answer differs from the truth.
   */
  async #lie(fault: LieFault, tool: ToolSpec, req: WireRequest): Promise<Reply> {
    const held = await this.#deliver(tool, req, 0);
    if (held.kind !== 'ok') return held;
    let told: Told;
    let asOf: number | undefined;
    if (fault.kind === 'stale') {
      asOf = this.#clock.now() - fault.lagMs;
      const past = await this.#serve(tool, req, this.#context(tool, req, undefined, asOf));
      told = past.kind === 'ok' ? toldIfDifferent(held.value, past.value) : { kind: 'none' };
    } else {
      // A status query answers an OperationStatus, not the tool's output: its schema does not apply.
      told = lieAbout(
        fault,
        held.value,
        this.#lieRng,
        req.purpose === 'status' ? undefined : declaredOutput(tool.output),
      );
    }
    if (told.kind === 'none') return held;
    this.#history.record({
      type: 'lie',
      request: req.request,
      tool: req.tool,
      purpose: req.purpose,
      fault,
      held: held.value,
      answered: told.answered,
      ...(asOf === undefined ? {} : { asOf: asOf - this.#startMs }),
      call: req.call,
      attempt: req.attempt,
    });
    return { kind: 'ok', value: told.answered };
  }

  #context(tool: ToolSpec, req: WireRequest, failure: Error | undefined, asOf?: number): ToolContext {
    const travel = this.#travelFor(tool.name);
    // One object per delivery, its keys in the same order as ever (a service may spread or list them).
    const ctx: Mutable<ToolContext> = { world: this.#world, clock: this.#clock, request: req.request };
    if (req.idempotencyKey !== undefined) ctx.idempotencyKey = req.idempotencyKey;
    if (failure) ctx.failure = failure;
    if (travel) ctx.travel = travel;
    if (asOf !== undefined) ctx.asOf = asOf;
    return ctx;
  }

  #travelFor(tool: string): ((leg: NetworkLeg) => Promise<void>) | undefined {
    const network = this.#network;
    if (!network) return undefined;
    let travel = this.#travels.get(tool);
    if (!travel) {
      const target = this.#target(tool);
      this.#travels.set(tool, (travel = (leg: NetworkLeg) => network.travel(this.#clock, target, leg)));
    }
    return travel;
  }

  /** The service's answer to `req` in `ctx`, as a value: no events. */
  async #serve(tool: ToolSpec, req: WireRequest, ctx: ToolContext): Promise<Answer> {
    try {
      const value = await serveRequest(tool, req, ctx);
      return { kind: 'ok', value: overTheWire(value) };
    } catch (error) {
      return { kind: 'error', error: asServerError(error) };
    }
  }

  /** One arrival at the service: validate, run (or answer a status query), record its effects. */
  async #deliver(tool: ToolSpec, req: WireRequest, copy: number, failure?: Error): Promise<Answer> {
    this.#history.stamp(deliveryEvent(req, copy));
    const ctx = this.#context(tool, req, failure);
    try {
      if (hopSeam.at) await extraHops('wire:deliver');
      const value = await serveRequest(tool, req, ctx);
      if (hopSeam.at) await extraHops('wire:served');
      // A tool that never consulted `ctx.failure` (a read) still fails the way the fault says.
      if (failure) return { kind: 'error', error: asServerError(failure) };
      return { kind: 'ok', value: overTheWire(value) };
    } catch (error) {
      return { kind: 'error', error: asServerError(error) };
    } finally {
      this.#effects.recordNew();
    }
  }

  /**
   * What `send` settles with: the answer's value, its error thrown, or a wait for the caller's abort when the answer is
   * lost. A value, not a promise around it: `send`'s promise settles without adopting another (one order at one
   * virtual instant makes no hop count matter, docs/determinism.md).
   */
  #finish(req: WireRequest, reply: Reply, signal: AbortSignal | undefined, legs?: NetworkLegs): unknown {
    this.#respond(req, reply, legs);
    switch (reply.kind) {
      case 'ok':
        return reply.value;
      case 'error':
        throw reply.error;
      case 'lost':
        return untilAborted(signal);
    }
  }

  #respond(req: WireRequest, reply: Reply, legs?: NetworkLegs): void {
    this.#history.stamp(responseEvent(req, reply, legs));
  }
}
