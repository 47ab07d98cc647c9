import { passHatK } from '../passK.js';
import { quantile } from '../quantile.js';
import type { ContentionScenario } from './ContentionScenario.js';
import type { ContentionTrial } from './runContentionTrial.js';

/** Something the report must point out, beside the figures. */
export type ContentionFlag =
  | { readonly kind: 'amplification'; readonly maxDeliveriesPerCall: number; readonly limit: number; readonly calls: number }
  | { readonly kind: 'duplicates'; readonly duplicates: number }
  | { readonly kind: 'unfinished'; readonly agents: number; readonly atMs: number };
export type ContentionFlagKind = ContentionFlag['kind'];

/** The figures of one configuration under one contention scenario, over all its trials. */
export interface ContentionMetrics {
  readonly trials: number;
  /** Agent runs: agents × trials. */
  readonly agents: number;
  readonly logicalCalls: number;
  /** Requests that reached the service, refused or not: the work the configuration caused. */
  readonly deliveries: number;
  /** Deliveries per logical call, every retry layer included (R10). */
  readonly amplification: number;
  readonly maxDeliveriesPerCall: number;
  /** Virtual time each agent took from its start to its last answer; an unfinished one counts until the trial stopped. */
  readonly completionMs: { readonly p50: number; readonly p95: number; readonly max: number };
  /** Agents whose every logical call succeeded. */
  readonly successRate: number;
  /** pass^k for k = 1..min(maxK, runs), each agent run a run of one task: the chance that k of them all succeed. */
  readonly passHat: readonly number[];
  readonly duplicates: number;
  /** Logical calls over the scenario's deliveries limit, agents over its deadline, agents unfinished. */
  readonly budgetViolations: number;
  readonly throttled: { readonly responses: number; readonly ms: number };
  readonly unfinished: number;
  readonly flags: readonly ContentionFlag[];
}

export function contentionMetrics(scenario: ContentionScenario, trials: readonly ContentionTrial[]): ContentionMetrics {
  const limit = scenario.budget.maxDeliveriesPerCall;
  const deadline = scenario.budget.deadlineMs;
  let agents = 0, succeeded = 0, unfinished = 0, overLimit = 0, overDeadline = 0, maxPerCall = 0, unfinishedAt = 0;
  let logicalCalls = 0, deliveries = 0, duplicates = 0, throttledResponses = 0, throttledMs = 0;
  const completion: number[] = [];
  for (const t of trials) {
    logicalCalls += t.stats.logicalCalls;
    deliveries += t.stats.deliveries;
    duplicates += t.stats.duplicates;
    throttledResponses += t.stats.throttledResponses;
    throttledMs += t.stats.throttledMs;
    for (const a of t.agents) {
      agents++;
      const done = a.endMs !== undefined;
      if (!done) {
        unfinished++;
        unfinishedAt = Math.max(unfinishedAt, t.endMs);
      }
      const took = (a.endMs ?? t.endMs) - a.startMs;
      completion.push(took);
      if (done && deadline !== null && took > deadline) overDeadline++;
      if (done && a.ops.length === scenario.callsPerAgent && a.ops.every((o) => o.result === 'ok')) succeeded++;
      for (const o of a.ops) {
        maxPerCall = Math.max(maxPerCall, o.deliveries);
        if (o.deliveries > limit) overLimit++;
      }
    }
  }
  const tally = [{ n: agents, c: succeeded }];
  const ks = Array.from({ length: Math.min(scenario.maxK, agents) }, (_, i) => i + 1);
  const flags: ContentionFlag[] = [];
  if (maxPerCall > limit) flags.push({ kind: 'amplification', maxDeliveriesPerCall: maxPerCall, limit, calls: overLimit });
  if (duplicates > 0) flags.push({ kind: 'duplicates', duplicates });
  if (unfinished > 0) flags.push({ kind: 'unfinished', agents: unfinished, atMs: unfinishedAt });
  return {
    trials: trials.length,
    agents,
    logicalCalls,
    deliveries,
    amplification: logicalCalls === 0 ? 0 : deliveries / logicalCalls,
    maxDeliveriesPerCall: maxPerCall,
    completionMs: { p50: quantile(completion, 0.5), p95: quantile(completion, 0.95), max: Math.max(0, ...completion) },
    successRate: agents === 0 ? 0 : succeeded / agents,
    passHat: ks.map((k) => passHatK(tally, k) ?? 0),
    duplicates,
    budgetViolations: overLimit + overDeadline + unfinished,
    throttled: { responses: throttledResponses, ms: throttledMs },
    unfinished,
    flags,
  };
}
