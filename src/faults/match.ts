import type { Rng } from '../core/index.js';
import { isModelFault, isStreamFault } from './fault.js';
import type { FaultMatch, FaultPlan, FaultRule } from './plan.js';

/** What a fault plan can know about one request when it leaves the caller. */
export interface RequestFacts {
  readonly tool: string;
  readonly purpose: 'call' | 'status';
  /** The nth distinct logical call of this tool in the trial, 1-based. */
  readonly call: number;
  /** The attempt within that call, 1-based. */
  readonly attempt: number;
  /** Virtual milliseconds since the trial began. */
  readonly elapsedMs: number;
  /** A model request that asked for its answer as a stream (`stream: true`): only these take stream faults. */
  readonly streamed?: boolean;
  /** A read (a status query, or a tool whose risk is `read`): only these take `stale` faults. Unknown: taken. */
  readonly read?: boolean;
  /** A request to a model route: only these take the model's own mistakes (`malformed_arguments`…). */
  readonly model?: boolean;
}

const oneOf = <T>(wanted: T | readonly T[] | undefined, actual: T): boolean =>
  wanted === undefined || (Array.isArray(wanted) ? (wanted as readonly T[]).includes(actual) : wanted === actual);

/** Every field of `match` except `probability`: pure, draws nothing. */
export function matchesFields(match: FaultMatch, facts: RequestFacts): boolean {
  return (
    oneOf(match.tool, facts.tool) &&
    // A status query is reconciliation, not the call: `attempt: 1` must not also hit it.
    (match.purpose === 'any' || (match.purpose ?? 'call') === facts.purpose) &&
    oneOf(match.call, facts.call) &&
    oneOf(match.attempt, facts.attempt) &&
    (match.from === undefined || facts.elapsedMs >= match.from) &&
    (match.to === undefined || facts.elapsedMs < match.to)
  );
}

/**
 * Whether `rule` applies to the request, given how often it has applied already (`hits`).
 * The probability is drawn last, only once every other field matched and the rule still
 * has `times` left, so a rule that cannot apply never consumes a draw: adding an unrelated
 * rule to a plan leaves every other rule's draws where they were.
 */
export function matchesRule(rule: FaultRule, facts: RequestFacts, hits: number, rng: Rng): boolean {
  if (!matchesFields(rule.match, facts)) return false;
  if (isStreamFault(rule.fault) && facts.streamed !== true) return false;
  // The model's own mistakes need a model answer to make: any other request passes them by, drawing nothing.
  if (isModelFault(rule.fault) && facts.model !== true) return false;
  // A write's own answer is never stale: the rule passes it by, drawing nothing.
  if (rule.fault.kind === 'stale' && facts.read === false) return false;
  if (rule.times !== undefined && hits >= rule.times) return false;
  const p = rule.match.probability;
  return p === undefined || rng.chance(p);
}

/**
 * The first rule of `plan` that applies (rules are tried in order), or undefined. From
 * `healAtMs` on (a scenario's `heal`), none does, and no probability is drawn.
 */
export function pickRule(
  plan: FaultPlan,
  facts: RequestFacts,
  hits: readonly number[],
  rng: Rng,
  healAtMs?: number,
): { readonly index: number; readonly rule: FaultRule } | undefined {
  if (healAtMs !== undefined && facts.elapsedMs >= healAtMs) return undefined;
  for (const [index, rule] of plan.entries()) {
    if (matchesRule(rule, facts, hits[index] ?? 0, rng)) return { index, rule };
  }
  return undefined;
}
