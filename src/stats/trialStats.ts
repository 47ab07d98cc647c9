import { canonicalJson, type AgentOutcomeKind, type EventOf } from '../core/index.js';
import type { TrialIndex } from '../checks/trialIndex.js';
import type { RuleFirings } from './coverage.js';

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
  readonly tokens: { readonly input: number; readonly output: number; /** Of `input`, read from the provider's prompt cache; absent when none. */ readonly cached?: number };
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
  /** Deliveries to the services per `LOAD_BIN_MS` of virtual time, from the trial's start: the offered load, refusals and retries included. */
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
  const ledger = index.ledger;
  let turns = 0;
  let calls = 0;
  let attempts = 0;
  let deliveries = 0;
  let faults = 0;
  let tokensIn = 0;
  let tokensOut = 0;
  let tokensCached = 0;
  const perCall = new Map<string, number>();
  const callRequests = new Set<string>();
  const operations = new Set<string>();
  const firings = new Map<number, number>();
  // A lie that told nothing different (a cut longer than the list, a path the answer lacks) changed nothing: not a firing.
  const told = new Set<string>();
  for (const e of index.eventsOf('lie')) told.add(e.request);
  // An agent that makes its own HTTP calls has no execution-layer events: its calls come from the traffic.
  if (index.eventsOf('http_request').length > 0) {
    for (const c of index.wire.calls) {
      if (c.kind !== 'tool') continue;
      calls++;
      attempts += c.attempts.length;
      perCall.set(c.call, c.attempts.length);
      for (const a of c.attempts) callRequests.add(a.request);
      const first = c.attempts[0];
      operations.add(`${c.tool}\u0000${first ? `${first.method} ${first.url} ${first.bodyDigest}` : c.call}`);
    }
  }
  const toolCalls: EventOf<'tool_call'>[] = [];
  for (const e of history) {
    switch (e.type) {
      case 'model_turn':
        turns++;
        break;
      case 'tool_call':
        if (e.tool !== 'query_operation_status') {
          calls++;
          toolCalls.push(e);
        }
        break;
      case 'attempt':
        if (e.purpose === 'call') {
          attempts++;
          callRequests.add(e.request);
          perCall.set(e.call, (perCall.get(e.call) ?? 0) + 1);
        }
        break;
      case 'delivery':
        // Status queries are reconciliation, not load the call put on the service.
        if (callRequests.has(e.request)) deliveries++;
        break;
      case 'fault':
        if (LIE_KINDS.has(e.fault.kind) && !told.has(e.request)) break;
        faults++;
        firings.set(e.rule, (firings.get(e.rule) ?? 0) + 1);
        break;
      case 'response':
        tokensIn += e.usage?.input ?? 0;
        tokensOut += e.usage?.output ?? 0;
        tokensCached += e.usage?.cached ?? 0;
        break;
      default:
        break;
    }
  }
  let sends = 0;
  for (const [request, n] of index.load) if (callRequests.has(request)) sends += n;
  // A loop, not `Math.max(0, ...perCall.values())`: spreading an iterator into a call took the slow path every trial.
  let maxAttemptsPerCall = 0;
  for (const n of perCall.values()) if (n > maxAttemptsPerCall) maxAttemptsPerCall = n;
  const seen = new Set<string>();
  let duplicateEffects = 0;
  for (const fx of ledger) {
    const id = `${fx.service}\u0000${fx.effect}\u0000${fx.key}`;
    if (seen.has(id)) duplicateEffects++;
    else seen.add(id);
  }
  return {
    turns,
    calls,
    operations: operations.size === 0 && eachToolOnce(toolCalls) ? toolCalls.length : distinctOperations(operations, index, toolCalls),
    attempts,
    maxAttemptsPerCall,
    deliveries,
    sends,
    effects: ledger.length,
    duplicateEffects,
    faults,
    firings: [...firings].sort((a, b) => a[0] - b[0]),
    tokens: { input: tokensIn, output: tokensOut, ...(tokensCached > 0 && { cached: tokensCached }) },
    durationMs: history.at(-1)?.t ?? 0,
    ...(index.eventsOf('agent_start').length > 0 && { crowd: crowdStats(index, accepted) }),
  };
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
function distinctOperations(operations: Set<string>, index: TrialIndex, toolCalls: readonly EventOf<'tool_call'>[]): number {
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
const inputText = (index: TrialIndex, e: EventOf<'tool_call'>): string => (index.call(e.call) === e ? index.inputText(e.call) : undefined) ?? canonicalJson(e.input);

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
  const history = index.events;
  const starts = new Map<string, number>();
  const ends = new Map<string, { t: number; ok: boolean }>();
  const callOfRequest = new Map<string, string>();
  // Operations by the index's number for (tool, canonical input).
  const operationOfCall = new Map<string, number>();
  const sendsOfOperation: number[] = [];
  const throttledSince = new Map<string, number>();
  const load: number[] = [];
  const goodput: number[] = [];
  const bin = (into: number[], t: number): void => {
    const i = Math.floor(t / LOAD_BIN_MS);
    while (into.length <= i) into.push(0);
    into[i]!++;
  };
  let throttledResponses = 0;
  let throttledMs = 0;
  const resume = (call: string | undefined, t: number): void => {
    if (call === undefined) return;
    const since = throttledSince.get(call);
    if (since === undefined) return;
    throttledMs += t - since;
    throttledSince.delete(call);
  };
  for (const e of history) {
    switch (e.type) {
      case 'agent_start':
        starts.set(e.caller, e.startMs);
        break;
      case 'agent_end':
        if (e.caller !== undefined) ends.set(e.caller, { t: e.t, ok: accepted.includes(e.outcome) });
        break;
      case 'tool_call':
        if (e.tool !== 'query_operation_status') operationOfCall.set(e.call, index.operationOf(e));
        break;
      case 'attempt':
        if (e.purpose === 'call') callOfRequest.set(e.request, e.call);
        break;
      case 'delivery': {
        bin(load, e.t);
        resume(callOfRequest.get(e.request), e.t);
        break;
      }
      case 'response': {
        const call = callOfRequest.get(e.request);
        if (call === undefined) break;
        const op = operationOfCall.get(call);
        if (op !== undefined) sendsOfOperation[op] = (sendsOfOperation[op] ?? 0) + 1;
        if (e.result === 'error' && e.status !== undefined && THROTTLE_STATUSES.has(e.status)) {
          throttledResponses++;
          if (!throttledSince.has(call)) throttledSince.set(call, e.t);
        }
        break;
      }
      case 'outcome':
        // Throttled and never sent again: the wait lasted until the call ended.
        resume(e.call, e.t);
        if (e.result === 'ok' && operationOfCall.has(e.call)) bin(goodput, e.t);
        break;
      default:
        break;
    }
  }
  const last = history.at(-1)?.t ?? 0;
  for (const since of throttledSince.values()) throttledMs += Math.max(0, last - since);
  let succeeded = 0;
  const times: number[] = [];
  for (const [caller, start] of starts) {
    const end = ends.get(caller);
    if (end?.ok === true) succeeded++;
    // Whole ms: the counts stay bounded by the run's span, not by the number of agents.
    times.push(Math.round((end?.t ?? last) - start));
  }
  return {
    agents: starts.size,
    succeeded,
    completionMs: counted(times),
    throttled: { responses: throttledResponses, ms: Math.round(throttledMs) },
    maxSendsPerOperation: mostOf(sendsOfOperation),
    load,
    goodput,
  };
}
