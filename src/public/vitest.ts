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

export type { ScenarioOutcome } from '../vitest/matchers.js';
export type { DescribeScenariosOptions } from '../vitest/describeScenarios.js';
export type { ScenarioRef, RetryConfigRef, ScenarioRunOptions } from '../vitest/runScenario.js';

/** The matchers' types, on vitest's `expect(…)`. */
interface FaultlineMatchers<R = unknown> {
  /** pass^k of the trials is at least `atLeast` (default 1); `k` defaults to the number of trials. The failure carries the evidence and the replay command. */
  toHavePassK(k?: number, atLeast?: number): R;
  /** No trial produced a business effect twice (the `duplicates` checker). */
  toHaveNoDuplicateEffects(): R;
  /** No trial exceeded its budget of attempts, calls, turns or virtual time (the `budget` checker). */
  toStayWithinBudget(): R;
  /** Every rule of the scenario's fault plan fired in at least one trial (`expect: may-not-fire` rules aside). */
  toExerciseEveryFault(): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the declaration vitest documents for custom matchers
  interface Matchers<T = any> extends FaultlineMatchers<T> {}
}
