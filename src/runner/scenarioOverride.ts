import type { FaultPlan } from '../faults/plan.js';
import { keepSource } from './library.js';
import type { Scenario } from './scenario.js';

/**
 * A variant of a loaded scenario as plain data (explore's candidate plans): it travels to a
 * worker with the trial, which applies it to the scenario it loaded from the same file.
 */
export interface ScenarioOverride {
  readonly name?: string;
  readonly seedName?: string;
  readonly faults?: FaultPlan;
  readonly checks?: Scenario['checks'];
}

/** `scenario` with the override's fields; it keeps the scenario's file, so paths in it (a cassette, modules) resolve as before. */
export const withOverride = (scenario: Scenario, override: ScenarioOverride | undefined): Scenario =>
  override === undefined ? scenario : keepSource(scenario, { ...scenario, ...override });
