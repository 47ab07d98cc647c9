import type { FaultPlan } from '../faults/plan.js';
import { keepSource } from './library.js';
import type { Scenario } from './scenario.js';

/**
 * `scenario` with `added` after its own fault rules (the scenario itself when there are none): its
 * rules keep their precedence and their draws. Added rules (a sweep's, drawn at an intensity
 * that may be near 0) may rightly not fire: they never make a cell not exercised, unless they say so.
 */
export const withAddedFaults = (scenario: Scenario, added: FaultPlan | undefined): Scenario =>
  added === undefined || added.length === 0
    ? scenario
    : keepSource(scenario, {
        ...scenario,
        faults: [...scenario.faults, ...added.map((r) => ({ ...r, expect: r.expect ?? 'may-not-fire' }))],
      });
