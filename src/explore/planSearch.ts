import fc from 'fast-check';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';
import type { ExplorePlan } from './crashPointArbitrary.js';
import type { TrialSummary } from '../runner/trial.js';
import type { ExploreOptions } from './exploreOptions.js';
import type { PlanRuleFirings } from './exploreResult.js';
import type { FailureClass } from './failureClass.js';

/** The plans one search draws from (the search and every shrink of it draw the same), and where their rules sit in a trial's faults. */
export interface PlanSpace {
  readonly arbitrary: fc.Arbitrary<ExplorePlan>;
  readonly offset: number;
}

/** A class's first plan: where in fast-check's stream it was (`path`), and the plan's index in the search. */
export interface Found {
  readonly failure: FailureClass;
  readonly path: string;
  readonly index: number;
}

/** Why fast-check's run was ended from inside the property: it cannot be stopped from outside. */
export class Halt extends Error {}

/**
 * The plan's trial. A throw is a signal, or faultline's own crash, not the agent's (a trial turns
 * those into verdicts): `halt` is told which, and fast-check's run ends.
 */
export async function trialOrHalt(
  trialOf: (plan: ExplorePlan) => Promise<TrialSummary>,
  plan: ExplorePlan,
  halt: (why: 'stopped' | { readonly error: unknown }) => void,
): Promise<TrialSummary> {
  try {
    return await trialOf(plan);
  } catch (error) {
    halt(error instanceof Stopped ? 'stopped' : { error });
    throw new Halt();
  }
}

/**
 * A failure counts for the search and each shrink step only if at least one of the plan's own rules fired: else it is
 * not the plan's doing.
 */
export const exercised = (fired: readonly PlanRuleFirings[]): boolean => fired.some((r) => r.firings > 0);

/** fast-check takes a 32-bit seed; ours may be any safe integer. */
const fastCheckSeed = (seed: number): number => seed % 2 ** 31;

/** `fc.check` under the explore seed; a `--path` that leads nowhere is the user's input, not a crash. */
export async function checkAt(
  options: ExploreOptions,
  property: fc.IAsyncProperty<[ExplorePlan]>,
  parameters: fc.Parameters<[ExplorePlan]>,
): Promise<fc.RunDetails<[ExplorePlan]>> {
  try {
    return await fc.check(property, { ...parameters, seed: fastCheckSeed(options.seed) });
  } catch (error) {
    // A path from another seed, scenario or version of the plan space leads nowhere.
    if (options.path !== undefined && error instanceof Error && error.message.startsWith('Unable to replay')) {
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `--path ${options.path}: no plan of ${options.scenario.name} × ${options.config.name} at this ` +
          `path with seed ${options.seed} (copy --seed and --path together from the regression file's header)`,
      );
    }
    throw error;
  }
}

/** A trial stopped from outside (a signal): the search ends where it is. */
export class Stopped extends Error {}
