import fc from 'fast-check';
import { canonicalJson } from '../core/index.js';
import type { ExplorePlan } from './crashPointArbitrary.js';
import type { TrialSummary } from '../runner/trial.js';
import type { ExploreOptions } from './exploreOptions.js';
import type { PlanRuleFirings } from './exploreResult.js';
import type { FailureClass } from './failureClass.js';
import { planFirings } from './planTargets.js';
import { checkAt, exercised, Halt, trialOrHalt, type Found, type PlanSpace } from './planSearch.js';

/**
 * fast-check replays a class's first plan and shrinks it to the smallest plan that still shows
 * that class with at least one of its rules firing (a smaller plan that fails for another reason
 * is no reproduction); a rule of it that stayed silent is marked `expect: may-not-fire`.
 * Undefined when a signal stopped it.
 */
export async function shrinkClass(
  options: ExploreOptions,
  space: PlanSpace,
  found: Found,
  trialOf: (plan: ExplorePlan) => Promise<TrialSummary>,
  reported: (trial: TrialSummary) => FailureClass[],
): Promise<{ readonly plan: ExplorePlan; readonly shrinks: number; readonly path: string } | undefined> {
  let steps = 0;
  let halted: 'stopped' | { readonly error: unknown } | undefined;
  // The last plan that showed the class with its faults firing: at the end of shrinking, the counterexample.
  let lastFailure: { readonly plan: ExplorePlan; readonly fired: readonly PlanRuleFirings[] } | undefined;
  const property = fc.asyncProperty(space.arbitrary, async (plan) => {
    if (halted !== undefined) throw new Halt();
    if (options.signal?.aborted === true) {
      halted = 'stopped';
      throw new Halt();
    }
    if (steps > 0) options.onPlan?.('shrinking', steps);
    steps++;
    const trial = await trialOrHalt(trialOf, plan, (why) => (halted = why));
    const fired = planFirings(plan, space.offset, trial);
    const evidence = exercised(fired) && reported(trial).includes(found.failure);
    if (evidence) lastFailure = { plan, fired };
    return !evidence;
  });
  const details = await checkAt(options, property, { numRuns: 1, path: found.path });
  if (typeof halted === 'object') throw halted.error;
  if (halted === 'stopped') return undefined;
  if (!details.failed || details.counterexample === null)
    throw new Error(
      `explore: the plan of ${options.scenario.name} at path ${found.path} showed ${found.failure} once ` +
        `and not again: its trial is not deterministic`,
    );
  const [shrunk] = details.counterexample;
  // fast-check hands back the last value that failed; should it be a copy, its firings are read again by the caller.
  const firedThen =
    lastFailure !== undefined && canonicalJson(lastFailure.plan) === canonicalJson(shrunk)
      ? lastFailure.fired
      : undefined;
  // A rule that stayed silent in the failing trial is kept only for its draws: a regression run must not fail for its silence.
  // (A crash point that did not fire is never kept: a trial without it is the same trial.)
  const plan: ExplorePlan =
    firedThen === undefined
      ? shrunk
      : {
          ...shrunk,
          faults: shrunk.faults.map((r, i) =>
            firedThen[i]!.firings > 0 || r.expect !== undefined ? r : { ...r, expect: 'may-not-fire' as const },
          ),
        };
  return { plan, shrinks: details.numShrinks, path: details.counterexamplePath ?? found.path };
}
