import { canonicalJson, type HistoryEvent } from '../core/index.js';
import { requestLoad } from '../checks/amplification.js';
import { WireView } from '../checks/WireView.js';
import type { Effect } from '../world/ledger.js';

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
  readonly faults: number;
  /** Model tokens in (prompt) and out (completion), summed over the model answers' `usage` (R31). */
  readonly tokens: { readonly input: number; readonly output: number };
  /** Virtual milliseconds from the start to the last event. */
  readonly durationMs: number;
}

export function trialStats(history: readonly HistoryEvent[], ledger: readonly Effect[]): TrialStats {
  let turns = 0;
  let calls = 0;
  let attempts = 0;
  let deliveries = 0;
  let faults = 0;
  let tokensIn = 0;
  let tokensOut = 0;
  const perCall = new Map<string, number>();
  const callRequests = new Set<string>();
  const operations = new Set<string>();
  // An agent that makes its own HTTP calls has no execution-layer events: its calls come from the traffic.
  if (history.some((e) => e.type === 'http_request')) {
    for (const c of new WireView(history).calls) {
      if (c.kind !== 'tool') continue;
      calls++;
      attempts += c.attempts.length;
      perCall.set(c.call, c.attempts.length);
      for (const a of c.attempts) callRequests.add(a.request);
      const first = c.attempts[0];
      operations.add(`${c.tool}\u0000${first ? `${first.method} ${first.url} ${first.bodyDigest}` : c.call}`);
    }
  }
  for (const e of history) {
    switch (e.type) {
      case 'model_turn':
        turns++;
        break;
      case 'tool_call':
        if (e.tool !== 'query_operation_status') {
          calls++;
          operations.add(`${e.tool}\u0000${canonicalJson(e.input)}`);
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
        faults++;
        break;
      case 'response':
        tokensIn += e.usage?.input ?? 0;
        tokensOut += e.usage?.output ?? 0;
        break;
      default:
        break;
    }
  }
  let sends = 0;
  for (const [request, n] of requestLoad(history)) if (callRequests.has(request)) sends += n;
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
    operations: operations.size,
    attempts,
    maxAttemptsPerCall: Math.max(0, ...perCall.values()),
    deliveries,
    sends,
    effects: ledger.length,
    duplicateEffects,
    faults,
    tokens: { input: tokensIn, output: tokensOut },
    durationMs: history.at(-1)?.t ?? 0,
  };
}
