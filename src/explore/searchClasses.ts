import fc from 'fast-check';
import type { ExplorePlan } from './crashPointArbitrary.js';
import type { TrialSummary } from '../runner/trial.js';
import type { ExploreOptions } from './exploreOptions.js';
import type { PlanCoverage } from './exploreResult.js';
import type { FailureClass } from './failureClass.js';
import { planFirings } from './planTargets.js';
import { checkAt, exercised, Halt, trialOrHalt, type Found, type PlanSpace } from './planSearch.js';

/**
 * The search: every plan of the budget (or of `--time`), keeping the first plan of each class
 * not in `known` whose trial fired at least one of the plan's rules; each plan's coverage goes to
 * `plans`. A path with a shrink step (`4:0:1`) names one plan: the search tries only it.
 */
export async function searchClasses(
  options: ExploreOptions,
  space: PlanSpace,
  known: Set<FailureClass>,
  trialOf: (plan: ExplorePlan) => Promise<TrialSummary>,
  reported: (trial: TrialSummary) => FailureClass[],
  plans: PlanCoverage[],
): Promise<{
  readonly found: readonly Found[];
  readonly runs: number;
  readonly interrupted: boolean;
  readonly stopped: boolean;
}> {
  const start = options.path === undefined ? 0 : Number(options.path.split(':')[0]);
  const onePlan = options.path?.includes(':') === true;
  const found: Found[] = [];
  let searched = 0;
  let halted: 'stopped' | 'replayed' | { readonly error: unknown } | undefined;
  const property = fc.asyncProperty(space.arbitrary, async (plan) => {
    // A throw ends fast-check's runs; its shrinking of the throw is a few calls that throw at once, without a trial.
    if (halted !== undefined) throw new Halt();
    if (options.signal?.aborted === true) {
      halted = 'stopped';
      throw new Halt();
    }
    const index = searched++;
    options.onPlan?.('searching', searched);
    const trial = await trialOrHalt(trialOf, plan, (why) => (halted = why));
    const failures = reported(trial);
    const fired = planFirings(plan, space.offset, trial);
    plans.push({ plan: index + 1, rules: fired, failed: failures.length > 0 });
    // A failure none of whose rules fired is not the plan's doing: no evidence of any class.
    if (exercised(fired)) {
      for (const failure of failures) {
        if (known.has(failure)) continue;
        known.add(failure);
        found.push({ failure, index, path: onePlan ? options.path! : String(start + index) });
      }
    }
    if (onePlan) {
      halted = 'replayed';
      throw new Halt();
    }
    return true;
  });
  const details = await checkAt(options, property, {
    numRuns: options.runs,
    ...(options.timeLimitMs !== undefined && {
      interruptAfterTimeLimit: options.timeLimitMs,
      markInterruptAsFailure: false,
    }),
    ...(options.path !== undefined && { path: options.path }),
  });
  if (typeof halted === 'object') throw halted.error;
  return {
    found,
    runs: searched,
    interrupted: halted === 'stopped' || details.interrupted,
    stopped: halted === 'stopped',
  };
}
