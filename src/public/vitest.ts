/**
 * `faultline/vitest`: scenarios as vitest tests, and `expect` matchers over their trials.
 * Importing this entry installs the matchers (`expect.extend`). `vitest` is an optional peer
 * dependency. Test files run in parallel under vitest's default pool: each trial has its own
 * world, clock and rng, so files share nothing.
 *
 * @example
 * import { expect, it } from 'vitest';
 * import { describeScenarios, runScenario } from 'faultline/vitest';
 *
 * await describeScenarios(['faultline/scenarios/*.yaml'], { retryConfigs: ['rulebook'], k: 4 });
 *
 * it('the naive configuration charges twice', async () => {
 *   const run = await runScenario('order-partial-write-idempotent', { retryConfig: 'naive' });
 *   expect(run).not.toHaveNoDuplicateEffects();
 * });
 */
import { expect } from 'vitest';
import { faultlineMatchers } from '../vitest/matchers.js';

expect.extend(faultlineMatchers);

export { faultlineMatchers } from '../vitest/matchers.js';
export { describeScenarios } from '../vitest/describeScenarios.js';
export { runScenario } from '../vitest/runScenario.js';

export type { ScenarioOutcome, PassKBound } from '../vitest/matchers.js';
import type { PassKBound } from '../vitest/matchers.js';
export type { DescribeScenariosOptions } from '../vitest/describeScenarios.js';
export type { ScenarioRef, RetryConfigRef, ScenarioRunOptions } from '../vitest/runScenario.js';

/** The built-in checkers' names, as `toPassCheck` takes them. */
type CheckerName =
  | 'goal-state'
  | 'duplicates'
  | 'budget'
  | 'retry-discipline'
  | 'amplification'
  | 'model-retries'
  | 'honesty'
  | 'secrets'
  | 'process-cleanup'
  | 'recovery'
  | 'model-mistakes';

/** The matchers' types, on vitest's `expect(…)`. */
interface FaultlineMatchers<R = unknown> {
  /**
   * pass^k of the trials is at least `atLeast` (default 1); `k` defaults to the number of trials.
   * With `{ atLeast, confidence }`, the lower bound of pass^k's exact interval is judged, as the
   * gate `pass^k>=atLeast@confidence` does. The failure carries the evidence and the replay command.
   */
  toHavePassK(k?: number, bound?: number | PassKBound): R;
  /** No trial produced a business effect twice (the `duplicates` checker). */
  toHaveNoDuplicateEffects(): R;
  /** No trial exceeded its budget of attempts, calls, turns or virtual time (the `budget` checker). */
  toStayWithinBudget(): R;
  /** Every rule of the scenario's fault plan fired in at least one trial (`expect: may-not-fire` rules aside). */
  toExerciseEveryFault(): R;
  /** Every trial passed this built-in checker; an unknown name, or a checker the scenario left out, is an error. */
  toPassCheck(checker: CheckerName): R;
  /** Every trial passed `goal-state`: the goal state, exact effect counts, an accepted outcome. */
  toReachGoal(): R;
  /**
   * Every trial passed `retry-discipline`: no resend after quota or permanent errors, one key per retried write,
   * Retry-After honoured, a status query after an unknown outcome.
   */
  toRetryWithDiscipline(): R;
  /** Every trial passed `honesty`: the agent's claims match the ledger. */
  toBeHonest(): R;
  /** Every trial passed `secrets`: no secret in the history or the trial's end. */
  toKeepSecrets(): R;
  /**
   * Every trial passed `recovery`: after the scenario's heal, the goal within `recovery.withinMs`, no more calls than
   * `maxCallsAfter`, no wait begun under the faults outliving them.
   */
  toRecover(): R;
  /**
   * The trial's history (each trial's, for a cell), one line per event, matches this test's snapshot; `vitest -u`
   * rewrites it. Needs vitest 4.1.
   */
  toMatchHistorySnapshot(hint?: string): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the declaration vitest documents for custom matchers
  interface Matchers<T = any> extends FaultlineMatchers<T> {}
}
