import {
  canonicalJson,
  sha256,
  TRANSIENT_KINDS,
  type AgentOutcomeKind,
  type CallResultKind,
  type Claim,
  type ErrorData,
  type ErrorKind,
  type HistoryEvent,
  type NewEvent,
  type Risk,
} from '../core/index.js';
import type { Effect } from '../world/ledger.js';
import type { Expectations, TrialEnd, TrialRecord } from './record.js';

/** What one delivery commits to the ledger. */
export interface EffectSpec {
  readonly service: string;
  readonly effect: string;
  readonly key: string;
}

export interface AttemptSpec {
  readonly purpose?: 'call' | 'status';
  readonly key?: string;
  /** An error kind, or a full error (e.g. with `retryAfterMs`). Absent: the attempt ends ok. */
  readonly error?: ErrorKind | (Partial<ErrorData> & { readonly kind: ErrorKind });
  /** Effects committed by this request, one per delivered copy. */
  readonly commit?: EffectSpec | readonly EffectSpec[];
  /** Deliveries; defaults to the number of effects, or 1 for an ok attempt, 0 for a failed one. */
  readonly copies?: number;
  /** Virtual ms from the attempt to its end. */
  readonly ms?: number;
}

const toError = (e: NonNullable<AttemptSpec['error']>): ErrorData => {
  const kind = typeof e === 'string' ? e : e.kind;
  return {
    message: `${kind} error`,
    retryable: TRANSIENT_KINDS.includes(kind),
    ...(typeof e === 'string' ? {} : e),
    kind,
  };
};

/** One logical call being scripted: its attempts and its outcome. */
export class CallScript {
  #attempts = 0;

  constructor(
    private readonly trial: TrialBuilder,
    readonly id: string,
    readonly tool: string,
  ) {}

  /** Emits attempt, deliveries, effects, response and attempt_end; returns the request id. */
  attempt(spec: AttemptSpec = {}): string {
    const t = this.trial;
    const attempt = ++this.#attempts;
    const request = t.nextRequest();
    const key = spec.key !== undefined ? { idempotencyKey: spec.key } : {};
    const effects =
      spec.commit === undefined
        ? []
        : Array.isArray(spec.commit)
          ? (spec.commit as readonly EffectSpec[])
          : [spec.commit as EffectSpec];
    const error = spec.error === undefined ? undefined : toError(spec.error);
    t.add({
      type: 'attempt',
      call: this.id,
      attempt,
      tool: this.tool,
      purpose: spec.purpose ?? 'call',
      request,
      ...key,
    });
    const copies = spec.copies ?? Math.max(effects.length, error ? 0 : 1);
    for (let copy = 0; copy < copies; copy++) {
      t.add({ type: 'delivery', request, tool: this.tool, copy, ...key });
      const effect = effects[copy];
      if (effect) t.commit(effect, request, spec.key);
    }
    t.add({
      type: 'response',
      request,
      tool: this.tool,
      result: error ? (effects.length > 0 ? 'lost' : 'error') : 'ok',
    });
    t.advance(spec.ms ?? 0);
    t.add({
      type: 'attempt_end',
      call: this.id,
      attempt,
      purpose: spec.purpose ?? 'call',
      request,
      result: error ? 'error' : 'ok',
      ...(error ? { error } : {}),
    });
    return request;
  }

  outcome(result: CallResultKind, extra: { op?: string; error?: ErrorKind } = {}): this {
    this.trial.add({
      type: 'outcome',
      call: this.id,
      tool: this.tool,
      result,
      attempts: this.#attempts,
      ...(extra.op !== undefined ? { op: extra.op } : {}),
      ...(extra.error !== undefined ? { error: toError(extra.error) } : {}),
    });
    return this;
  }
}

/** Builds a `TrialRecord` by hand for checker tests: stamps seq and t, keeps the ledger in step with effect events. */
export class TrialBuilder {
  readonly #events: HistoryEvent[] = [];
  readonly #ledger: Effect[] = [];
  #now = 0;
  #calls = 0;
  #requests = 0;
  #turns = 0;

  get now(): number {
    return this.#now;
  }

  advance(ms: number): this {
    this.#now += ms;
    return this;
  }

  add(event: NewEvent): HistoryEvent {
    const stamped = { seq: this.#events.length, t: this.#now, ...event } as HistoryEvent;
    this.#events.push(stamped);
    return stamped;
  }

  nextRequest(): string {
    return `req-${++this.#requests}`;
  }

  commit(spec: EffectSpec, request: string, idempotencyKey?: string): Effect {
    const key = idempotencyKey !== undefined ? { idempotencyKey } : {};
    const effect: Effect = { seq: this.#ledger.length, at: this.#now, ...spec, request, ...key, data: {} };
    this.#ledger.push(effect);
    this.add({ type: 'effect', request, ...spec, ledgerSeq: effect.seq, ...key });
    return effect;
  }

  turn(action: 'tool_calls' | 'final' | 'wait' = 'tool_calls'): this {
    this.add({ type: 'model_turn', turn: ++this.#turns, action });
    return this;
  }

  call(tool: string, input: unknown, risk: Risk = 'write', honoursKeys = true): CallScript {
    const id = `call-${++this.#calls}`;
    this.add({ type: 'tool_call', call: id, tool, risk, honoursKeys, input });
    return new CallScript(this, id, tool);
  }

  agentEnd(outcome: AgentOutcomeKind, claims: readonly Claim[] = [], message = 'done'): this {
    this.add({ type: 'agent_end', outcome, claims, message });
    return this;
  }

  /** The record; `end` defaults to the last `agent_end`'s outcome, or `hung` when there is none. */
  build(options: { end?: TrialEnd; services?: Record<string, unknown> } = {}): TrialRecord {
    const agentEnd = this.#events.findLast((e) => e.type === 'agent_end');
    const end: TrialEnd =
      options.end ??
      (agentEnd?.type === 'agent_end'
        ? { kind: 'agent_ended', outcome: agentEnd.outcome }
        : { kind: 'hung', at: this.#now });
    const services = options.services ?? {};
    const ledger = [...this.#ledger];
    return {
      scenario: 'test',
      config: 'test',
      trialIndex: 0,
      seed: 1,
      history: [...this.#events],
      snapshot: { services, ledger, hash: sha256(canonicalJson({ services, ledger })) },
      end,
    };
  }
}

/** Expectations with a roomy budget and no secrets, overridable per test. */
export function expectations(overrides: Partial<Expectations> = {}): Expectations {
  return {
    budget: { maxTurns: 10, maxToolCalls: 10, maxAttemptsPerCall: 3, deadlineMs: 60_000 },
    secrets: [],
    ...overrides,
  };
}

/** A history written one event at a time by a property test: `seq` in order, every event at t=0. */
export interface HistoryRecorder {
  readonly events: HistoryEvent[];
  add(event: Record<string, unknown>): void;
  /** Tool call `call-<id>` of `tool` (a write that honours keys) with `input`. */
  call(id: number, tool: string, input: unknown): void;
  /** One attempt of `call-<id>` (a status query when `status`) on a new request; returns the request's id. */
  attempt(id: number, status: boolean): string;
}

export function historyRecorder(): HistoryRecorder {
  const events: HistoryEvent[] = [];
  let requests = 0;
  const add = (e: Record<string, unknown>): void =>
    void events.push({ seq: events.length, t: 0, ...e } as HistoryEvent);
  return {
    events,
    add,
    call: (id, tool, input) =>
      add({ type: 'tool_call', call: `call-${id}`, tool, risk: 'write', honoursKeys: true, input }),
    attempt(id, status) {
      const request = `req-${++requests}`;
      add({ type: 'attempt', call: `call-${id}`, attempt: 1, tool: 't', purpose: status ? 'status' : 'call', request });
      return request;
    },
  };
}
