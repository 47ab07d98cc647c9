import type { ExecutionConfigLike } from '../runtime/executionConfig.js';
import type { TrialSummary } from '../runner/trial.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ScenarioOverride } from '../scenario/scenarioOverride.js';
import type { IgnoreEntry } from './failureClass.js';

export interface ExploreOptions {
  readonly scenario: Scenario;
  readonly config: ExecutionConfigLike;
  /** Plans to try (fast-check's `numRuns`). */
  readonly runs: number;
  /** The explore seed: fast-check's seed, and every trial's run seed. */
  readonly seed: number;
  /** Wall-clock milliseconds before fast-check stops trying new plans (its `interruptAfterTimeLimit`). */
  readonly timeLimitMs?: number;
  /** fast-check's replay path of an earlier failure: starts there instead of searching. */
  readonly path?: string;
  /** Run the generated plan instead of the scenario's own faults (default: after them). */
  readonly replaceFaults?: boolean;
  /** Draw faults that look like success too (`--lies`). */
  readonly lies?: boolean;
  /**
   * Draw crash points only, no fault rules (`--crash-only`), in place of the scenario's own
   * `crash`: the agent's recovery from its own death alone. Needs an agent `canCrashAgent` allows.
   */
  readonly crashOnly?: boolean;
  /** The checkers that decide (default: the scenario's, but `goal-state`). */
  readonly checks?: readonly string[];
  /** Checkers, rules and classes the search does not report (`--ignore`): an ignored checker is not judged at all. */
  readonly ignore?: readonly IgnoreEntry[];
  /** Aborted (Ctrl-C): no new trial starts, and the search ends as `held`, `interrupted`. */
  readonly signal?: AbortSignal;
  /** Called before each trial: `searching` plans so far, or `shrinking` steps so far. */
  readonly onPlan?: (phase: 'searching' | 'shrinking', count: number) => void;
  /**
   * Runs one candidate's trial 0 (the scenario with `override`) under the explore seed; resolves
   * to `undefined` when it was stopped (a signal). Default: here, with `runTrial`; the CLI runs
   * them on a worker thread, isolated as `run` isolates trials.
   */
  readonly trial?: ExploreTrial;
}

/** How explore runs one candidate plan's trial. */
export type ExploreTrial = (override: ScenarioOverride) => Promise<TrialSummary | undefined>;
