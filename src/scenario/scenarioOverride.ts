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
  /** A cassette for the model to answer from (an absolute path): `faultline replay --cassette`, a live trial's recording. */
  readonly modelCassette?: string;
}

/** `scenario` with the override's fields; it keeps the scenario's file, so paths in it (a cassette, modules) resolve as before. */
export function withOverride(scenario: Scenario, override: ScenarioOverride | undefined): Scenario {
  if (override === undefined) return scenario;
  const { modelCassette, ...rest } = override;
  const model =
    modelCassette !== undefined && scenario.model ? { model: { ...scenario.model, cassette: modelCassette } } : {};
  return keepSource(scenario, { ...scenario, ...rest, ...model });
}
