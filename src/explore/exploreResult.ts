import type { ExecutionConfigLike } from '../runtime/executionConfig.js';
import type { TrialSummary } from '../runner/trial.js';
import type { Scenario } from '../scenario/scenario.js';
import type { FaultPlan } from '../faults/plan.js';
import type { AgentCrashTrigger } from '../scenario/agentCrash.js';
import type { FailureClass } from './failureClass.js';

/** How often one generated rule fired in its plan's trial. */
export interface PlanRuleFirings {
  /** Its index in the generated plan (the trial's `faults[offset + rule]`), or `CRASH_RULE` for its crash point. */
  readonly rule: number;
  readonly label: string;
  readonly firings: number;
}

/**
 * One searched plan's trial: which of the plan's rules fired. A plan none of whose rules fired
 * met no fault of its own: its trial is not evidence either way.
 */
export interface PlanCoverage {
  /** 1, 2, … in the order the search tried them (shrink steps are not counted). */
  readonly plan: number;
  readonly rules: readonly PlanRuleFirings[];
  /** The trial showed a failure class the search reports. */
  readonly failed: boolean;
}

/** Whether a plan's trial met its faults: `every` rule fired, `some` did, or `none`. */
export type PlanExercise = 'every' | 'some' | 'none';
export const planExercise = (c: Pick<PlanCoverage, 'rules'>): PlanExercise => {
  const fired = c.rules.filter((r) => r.firings > 0).length;
  return fired === 0 ? 'none' : fired === c.rules.length ? 'every' : 'some';
};

/** One failure class the search found, shrunk on its own: its plan, its regression scenario and that scenario's failing trial 0. */
export interface ExploreFinding {
  readonly failure: FailureClass;
  /**
   * The shrunk plan fast-check found (the regression's faults are the scenario's own, then
   * these). A rule of it that did not fire in the failing trial (kept because removing it
   * changed the trial's draws) says `expect: may-not-fire`; at least one rule fired.
   */
  readonly plan: FaultPlan;
  /** The shrunk crash point (the regression's `crash.agent`), where the plan kept one. */
  readonly crash?: AgentCrashTrigger;
  /** How often each rule of `plan` fired in the failing trial, then its crash point's (rule `CRASH_RULE`). */
  readonly fired: readonly PlanRuleFirings[];
  readonly regression: Scenario;
  readonly trial: FailedTrialResult;
  readonly shrinks: number;
  /** fast-check's replay path: `explore --seed S --path P` starts at this counterexample. */
  readonly path: string;
  /** The plan of the search (1, 2…) that showed this class first. */
  readonly foundAt: number;
}

/**
 * `held`: no plan failed, and the scenario does not fail on its own; `failed`: it does
 * (`baseline`, with the classes it shows), or plans showed further classes (`findings`, one
 * shrunk plan each; `unshrunk`, those a signal left unshrunk). `interrupted`: the time limit
 * or a signal cut the search short.
 */
export type ExploreResult =
  | (ExploreCommon & { readonly kind: 'held' })
  | (ExploreCommon & {
      readonly kind: 'failed';
      readonly baseline?: { readonly trial: FailedTrialResult; readonly classes: readonly FailureClass[] };
      readonly findings: readonly ExploreFinding[];
      readonly unshrunk: readonly FailureClass[];
    });
export type ExploreResultKind = ExploreResult['kind'];
export type FailedTrialResult = Extract<TrialSummary, { status: 'failed' }>;

export interface ExploreCommon {
  readonly scenario: Scenario;
  readonly config: ExecutionConfigLike;
  readonly seed: number;
  /** Plans the search tried before it stopped or ran out of budget. */
  readonly runs: number;
  readonly checks: readonly string[];
  readonly interrupted: boolean;
  /** Each searched plan's coverage, in order (shrink steps aside). */
  readonly plans: readonly PlanCoverage[];
  /** Model routes the scenario's own trial streamed, on which stream faults were generated. */
  readonly streamed: readonly string[];
}
