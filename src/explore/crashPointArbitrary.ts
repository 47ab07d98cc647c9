import fc from 'fast-check';
import type { FaultPlan } from '../faults/plan.js';
import type { AgentCrashTrigger } from '../scenario/agentCrash.js';

/**
 * What explore draws and shrinks: the rules added to the scenario's faults and, where the agent
 * can be crashed, a crash point (`crash.agent`) in place of the scenario's own.
 */
export interface ExplorePlan {
  readonly faults: FaultPlan;
  readonly crash?: AgentCrashTrigger;
}

export interface CrashPointShape {
  /** The tools whose committed effect a crash may follow: the scenario's tools that write. */
  readonly writeTools: readonly string[];
  /** Largest `nth` effect and `afterCall` request to name (default 3 and 4). */
  readonly maxNth?: number;
  readonly maxCall?: number;
  /** Largest `atMs` to name (default 2,000: a command agent's ms are real ones). */
  readonly maxAtMs?: number;
}

/**
 * A crash point: after the n-th committed effect of a tool that writes, after the n-th tool
 * request, or at a time. It shrinks towards the first kind (`withCrossShrink`) and, in each,
 * towards the first: the first effect of the first write tool (`nth` left out, as a hand-written
 * trigger would), the first request, t=0. A time, on the wall clock, is drawn least often.
 */
export function crashPointArbitrary(shape: CrashPointShape): fc.Arbitrary<AgentCrashTrigger> {
  const { writeTools, maxNth = 3, maxCall = 4, maxAtMs = 2_000 } = shape;
  const call = fc.integer({ min: 1, max: maxCall }).map((n): AgentCrashTrigger => ({ afterCall: n }));
  const at = fc.integer({ min: 0, max: maxAtMs }).map((ms): AgentCrashTrigger => ({ atMs: ms }));
  const arms = [
    { arbitrary: call, weight: 2 },
    { arbitrary: at, weight: 1 },
  ];
  if (writeTools.length === 0) return fc.oneof({ withCrossShrink: true }, ...arms);
  const effect = fc
    .record({ afterEffectOf: fc.constantFrom(...writeTools), nth: fc.integer({ min: 1, max: maxNth }) })
    .map(({ afterEffectOf, nth }): AgentCrashTrigger => (nth === 1 ? { afterEffectOf } : { afterEffectOf, nth }));
  return fc.oneof({ withCrossShrink: true }, { arbitrary: effect, weight: 2 }, ...arms);
}

/**
 * The plans of one search: `faults` alone as before (no crash: the same seed draws the same
 * plans it drew before crash points existed), or with a crash point as well, in about half the
 * plans and beside zero or more rules (at least one of the two), or crash points alone (`only`).
 * A tuple shrinks its rules first, so a crash that breaks the agent on its own loses every rule.
 */
export function explorePlanArbitrary(
  faults: (minRules: number) => fc.Arbitrary<FaultPlan>,
  crash?: { readonly points: fc.Arbitrary<AgentCrashTrigger>; readonly only: boolean },
): fc.Arbitrary<ExplorePlan> {
  if (crash === undefined) return faults(1).map((f) => ({ faults: f }));
  if (crash.only) return crash.points.map((c) => ({ faults: [], crash: c }));
  return fc
    .tuple(faults(0), fc.option(crash.points, { nil: undefined, freq: 2 }))
    .filter(([f, c]) => f.length > 0 || c !== undefined)
    .map(([f, c]) => (c === undefined ? { faults: f } : { faults: f, crash: c }));
}
