import { canonicalJson, type AgentOutcomeKind, type EventOf } from '../core/index.js';
import { MODEL_MISTAKE_KINDS } from '../checks/modelMistakes.js';
import type { TrialIndex } from '../checks/trialIndex.js';
import { CRASH_RULE, type RuleFirings } from './coverage.js';

/** The faults that look like success (`LIE_FAULT_KINDS`, named here so that stats need not load the plan's zod schemas). */
export const LIE_KINDS: ReadonlySet<string> = new Set(['stale', 'empty', 'truncated', 'wrong_value']);

/** The numbers one trial contributes to the metrics; a pure function of its history and ledger. */
export interface TrialStats {
  readonly turns: number;
  /** Logical tool calls (the agent's), status queries excluded. */
  readonly calls: number;
  /** Distinct (tool, input) among those calls: an agent re-calling with the same input retries, it adds no work (R10). */
  readonly operations: number;
  /** Attempts the execution layer sent for those calls. */
  readonly attempts: number;
  readonly maxAttemptsPerCall: number;
  /** Requests that reached a service's business logic (a duplicate delivery counts each copy). */
  readonly deliveries: number;
  /** Load on the service side: every send of the agent's calls, refused or not, plus duplicate copies (R10). */
  readonly sends: number;
  readonly effects: number;
  /** Effects beyond the first for one (service, effect, key). */
  readonly duplicateEffects: number;
  /** Faults that fired: fault events, a lie's only when it told something other than the truth (a `lie` event). */
  readonly faults: number;
  /** Those firings per rule of the plan, as `[rule, firings]` (coverage: a rule that never fires leaves its cell not exercised). */
  readonly firings: RuleFirings;
  /** Model tokens in (prompt) and out (completion), summed over the model answers' `usage` (R31). */
  readonly tokens: {
    readonly input: number;
    readonly output: number;
    /** Of `input`, read from the provider's prompt cache; absent when none. */ readonly cached?: number;
  };
  /** Virtual milliseconds from the start to the last event. */
  readonly durationMs: number;
  /** Present when the scenario ran many agents at once (`agents` > 1). */
  readonly crowd?: CrowdStats;
  /** Present when the scenario expects a recovery after its heal (see the `recovery` checker). */
  readonly recovery?: RecoveryStats;
}

/** What one trial did after the heal. */
export interface RecoveryStats {
  /** Virtual ms from the heal to the goal (0 when reached before it); null when the goal was never reached. */
  readonly timeToRecoverMs: number | null;
  /** Logical tool calls started at or after the heal. */
  readonly callsAfter: number;
}

/** Counted values as `[value, count]`, by value: exact quantiles in bounded memory, and mergeable. */
export type Counts = readonly (readonly [value: number, count: number])[];

/** The width of the load histogram's bins, in virtual ms. */
export const LOAD_BIN_MS = 100;

/** What a many-agent trial adds: per-agent success and time, throttling, the load over time (R10, R31). */
export interface CrowdStats {
  readonly agents: number;
  /** Agents whose own end was an accepted outcome (`goal.outcome`, default `completed`). */
  readonly succeeded: number;
  /** Each agent's virtual time from its start to its end (an unfinished one's to the trial's last event), counted. */
  readonly completionMs: Counts;
  /** Answers of 429 or 503, and the virtual ms from each to the call's next send (or its end), summed. */
  readonly throttled: { readonly responses: number; readonly ms: number };
  /** The most sends one logical operation caused, every retry layer included (R10). */
  readonly maxSendsPerOperation: number;
  /**
   * Deliveries to the services per `LOAD_BIN_MS` of virtual time, from the trial's start: the offered load, refusals
   * and retries included.
   */
  readonly load: readonly number[];
  /** The agents' logical calls that succeeded, per bin of the same width (by the time the caller got the answer): the goodput. */
  readonly goodput: readonly number[];
}

/**
 * The stats of the trial `index` was built over (its history and final ledger). The index the
 * checkers judged with: its traffic view, canonical inputs and load per request are built once.
 */
export function trialStats(index: TrialIndex, accepted: readonly AgentOutcomeKind[] = ['completed']): TrialStats {
  const history = index.events;
  const n = newEventCounts();
  // An agent that makes its own HTTP calls has no execution-layer events: its calls come from the traffic.
  if (index.eventsOf('http_request').length > 0) countWireCalls(index, n);
  // A lie that told nothing different (a cut longer than the list, a path the answer lacks) changed nothing: not a firing.
  const told = new Set<string>();
  for (const e of index.eventsOf('lie')) told.add(e.request);
  countEvents(history, n, told);
  let sends = 0;
  for (const [request, k] of index.load) if (n.callRequests.has(request)) sends += k;
  // A loop, not `Math.max(0, ...perCall.values())`: spreading an iterator into a call took the slow path every trial.
  let maxAttemptsPerCall = 0;
  for (const k of n.perCall.values()) if (k > maxAttemptsPerCall) maxAttemptsPerCall = k;
  return {
    turns: n.turns,
    calls: n.calls,
    operations:
      n.operations.size === 0 && eachToolOnce(n.toolCalls)
        ? n.toolCalls.length
        : distinctOperations(n.operations, index, n.toolCalls),
    attempts: n.attempts,
    maxAttemptsPerCall,
    deliveries: n.deliveries,
    sends,
    effects: index.ledger.length,
    duplicateEffects: duplicateEffectsOf(index.ledger),
    faults: n.faults,
    firings: [...n.firings].sort((x, y) => x[0] - y[0]),
    tokens: { input: n.tokensIn, output: n.tokensOut, ...(n.tokensCached > 0 && { cached: n.tokensCached }) },
    durationMs: history.at(-1)?.t ?? 0,
    ...(index.eventsOf('agent_start').length > 0 && { crowd: crowdStats(index, accepted) }),
  };
}

/** What one pass over a trial's history counts (and the wire's calls, for an agent that makes its own). */
interface EventCounts {
  turns: number;
  calls: number;
  attempts: number;
  deliveries: number;
  faults: number;
  tokensIn: number;
  tokensOut: number;
  tokensCached: number;
  readonly perCall: Map<string, number>;
  readonly callRequests: Set<string>;
  readonly operations: Set<string>;
  readonly firings: Map<number, number>;
  readonly toolCalls: EventOf<'tool_call'>[];
}

const newEventCounts = (): EventCounts => ({
  turns: 0,
  calls: 0,
  attempts: 0,
  deliveries: 0,
  faults: 0,
  tokensIn: 0,
  tokensOut: 0,
  tokensCached: 0,
  perCall: new Map(),
  callRequests: new Set(),
  operations: new Set(),
  firings: new Map(),
  toolCalls: [],
});

/**
 * The calls of an agent that makes its own HTTP calls, from the traffic: each a call, its requests attempts, its
 * first request the operation.
 */
function countWireCalls(index: TrialIndex, n: EventCounts): void {
  for (const c of index.wire.calls) {
    if (c.kind !== 'tool') continue;
    n.calls++;
    n.attempts += c.attempts.length;
    n.perCall.set(c.call, c.attempts.length);
    for (const a of c.attempts) n.callRequests.add(a.request);
    const first = c.attempts[0];
    n.operations.add(`${c.tool}\u0000${first ? `${first.method} ${first.url} ${first.bodyDigest}` : c.call}`);
  }
}

function countEvents(history: TrialIndex['events'], n: EventCounts, told: ReadonlySet<string>): void {
  for (const e of history) {
    switch (e.type) {
      case 'model_turn':
        n.turns++;
        break;
      case 'tool_call':
        if (e.tool !== 'query_operation_status') {
          n.calls++;
          n.toolCalls.push(e);
        }
        break;
      case 'attempt':
        if (e.purpose === 'call') {
          n.attempts++;
          n.callRequests.add(e.request);
          n.perCall.set(e.call, (n.perCall.get(e.call) ?? 0) + 1);
        }
        break;
      case 'delivery':
        // Status queries are reconciliation, not load the call put on the service.
        if (n.callRequests.has(e.request)) n.deliveries++;
        break;
      case 'fault':
        if ((LIE_KINDS.has(e.fault.kind) || MODEL_MISTAKE_KINDS.has(e.fault.kind)) && !told.has(e.request)) break;
        n.faults++;
        n.firings.set(e.rule, (n.firings.get(e.rule) ?? 0) + 1);
        break;
      case 'agent_crash':
        // The crash trigger fired: coverage counts it as a planned rule (`CRASH_RULE`), not as a fault.
        n.firings.set(CRASH_RULE, (n.firings.get(CRASH_RULE) ?? 0) + 1);
        break;
      case 'response':
        n.tokensIn += e.usage?.input ?? 0;
        n.tokensOut += e.usage?.output ?? 0;
        n.tokensCached += e.usage?.cached ?? 0;
        break;
      default:
        break;
    }
  }
}

/** Effects of the ledger whose (service, effect, key) an earlier effect already had. */
function duplicateEffectsOf(ledger: TrialIndex['ledger']): number {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const fx of ledger) {
    const id = `${fx.service}\u0000${fx.effect}\u0000${fx.key}`;
    if (seen.has(id)) duplicates++;
    else seen.add(id);
  }
  return duplicates;
}

/**
 * Whether no two calls share a tool, so that each is an operation of its own whatever its input:
 * keys `tool\0input` of two tools never meet, even where a tool's name holds a NUL, since the
 * canonical input after it holds none (JSON escapes it). Most trials call each tool once, and
 * then no input is printed.
 */
function eachToolOnce(toolCalls: readonly EventOf<'tool_call'>[]): boolean {
  const tools = new Set<string>();
  for (const e of toolCalls) {
    if (tools.has(e.tool)) return false;
    tools.add(e.tool);
  }
  return true;
}

/** How many distinct (tool, canonical input) there are among `toolCalls` and the keys already in `operations`. */
function distinctOperations(
  operations: Set<string>,
  index: TrialIndex,
  toolCalls: readonly EventOf<'tool_call'>[],
): number {
  // No wire keys to meet: the index's operation numbers (shared with amplification and the crowd's stats), counted once each.
  if (operations.size === 0) {
    const counted: boolean[] = [];
    let distinct = 0;
    for (const e of toolCalls) {
      const op = index.operationOf(e);
      if (counted[op] === true) continue;
      counted[op] = true;
      distinct++;
    }
    return distinct;
  }
  for (const e of toolCalls) operations.add(`${e.tool}\u0000${inputText(index, e)}`);
  return operations.size;
}

/**
 * A call's canonical input: the index's (printed once per trial) when the index's call of that id
 * is this event; a call id used twice keeps only its last in the index, so the other is printed here.
 */
const inputText = (index: TrialIndex, e: EventOf<'tool_call'>): string =>
  (index.call(e.call) === e ? index.inputText(e.call) : undefined) ?? canonicalJson(e.input);

/** The largest number in a sparse list (0 when none): the holes are operations no response reached. */
function mostOf(list: readonly (number | undefined)[]): number {
  let most = 0;
  for (const n of list) if (n !== undefined && n > most) most = n;
  return most;
}

const THROTTLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const counted = (values: readonly number[]): Counts => {
  const m = new Map<number, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m].sort((a, b) => a[0] - b[0]);
};

/** One pass over a many-agent history: each agent's end, throttled calls, sends per operation, load. */
export function crowdStats(index: TrialIndex, accepted: readonly AgentOutcomeKind[]): CrowdStats {
  const pass = new CrowdPass(index, accepted);
  for (const e of index.events) pass.event(e);
  return pass.stats(index.events.at(-1)?.t ?? 0);
}

/** What `crowdStats` gathers from the events, in their order. */
class CrowdPass {
  readonly #starts = new Map<string, number>();
  readonly #ends = new Map<string, { t: number; ok: boolean }>();
  readonly #callOfRequest = new Map<string, string>();
  // Operations by the index's number for (tool, canonical input).
  readonly #operationOfCall = new Map<string, number>();
  readonly #sendsOfOperation: number[] = [];
  readonly #throttledSince = new Map<string, number>();
  readonly #load: number[] = [];
  readonly #goodput: number[] = [];
  #throttledResponses = 0;
  #throttledMs = 0;

  constructor(
    private readonly index: TrialIndex,
    private readonly accepted: readonly AgentOutcomeKind[],
  ) {}

  event(e: TrialIndex['events'][number]): void {
    switch (e.type) {
      case 'agent_start':
        this.#starts.set(e.caller, e.startMs);
        break;
      case 'agent_end':
        if (e.caller !== undefined) this.#ends.set(e.caller, { t: e.t, ok: this.accepted.includes(e.outcome) });
        break;
      case 'tool_call':
        if (e.tool !== 'query_operation_status') this.#operationOfCall.set(e.call, this.index.operationOf(e));
        break;
      case 'attempt':
        if (e.purpose === 'call') this.#callOfRequest.set(e.request, e.call);
        break;
      case 'delivery':
        bin(this.#load, e.t);
        this.#resume(this.#callOfRequest.get(e.request), e.t);
        break;
      case 'response':
        this.#response(e);
        break;
      case 'outcome':
        // Throttled and never sent again: the wait lasted until the call ended.
        this.#resume(e.call, e.t);
        if (e.result === 'ok' && this.#operationOfCall.has(e.call)) bin(this.#goodput, e.t);
        break;
      default:
        break;
    }
  }

  #response(e: EventOf<'response'>): void {
    const call = this.#callOfRequest.get(e.request);
    if (call === undefined) return;
    const op = this.#operationOfCall.get(call);
    if (op !== undefined) this.#sendsOfOperation[op] = (this.#sendsOfOperation[op] ?? 0) + 1;
    if (e.result === 'error' && e.status !== undefined && THROTTLE_STATUSES.has(e.status)) {
      this.#throttledResponses++;
      if (!this.#throttledSince.has(call)) this.#throttledSince.set(call, e.t);
    }
  }

  #resume(call: string | undefined, t: number): void {
    if (call === undefined) return;
    const since = this.#throttledSince.get(call);
    if (since === undefined) return;
    this.#throttledMs += t - since;
    this.#throttledSince.delete(call);
  }

  /** The figures once every event is in; `last`: the time of the history's last event. */
  stats(last: number): CrowdStats {
    let throttledMs = this.#throttledMs;
    for (const since of this.#throttledSince.values()) throttledMs += Math.max(0, last - since);
    let succeeded = 0;
    const times: number[] = [];
    for (const [caller, start] of this.#starts) {
      const end = this.#ends.get(caller);
      if (end?.ok === true) succeeded++;
      // Whole ms: the counts stay bounded by the run's span, not by the number of agents.
      times.push(Math.round((end?.t ?? last) - start));
    }
    return {
      agents: this.#starts.size,
      succeeded,
      completionMs: counted(times),
      throttled: { responses: this.#throttledResponses, ms: Math.round(throttledMs) },
      maxSendsPerOperation: mostOf(this.#sendsOfOperation),
      load: this.#load,
      goodput: this.#goodput,
    };
  }
}

/** Counts one event at `t` in its bin of `LOAD_BIN_MS`. */
function bin(into: number[], t: number): void {
  const i = Math.floor(t / LOAD_BIN_MS);
  while (into.length <= i) into.push(0);
  into[i]!++;
}
