import type { FaultPlan } from '../faults/plan.js';
import type { BehaviourSpec } from '../model/behaviours.js';
import type { ScenarioCrash } from './agentCrash.js';
import { keepLoaded, keepSource } from './library.js';
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
  /** The stand-in model's behaviour (`--behaviour`): a scripted agent's, and the scripted model's a scenario serves. */
  readonly behaviour?: BehaviourSpec;
  /** The agent's crash point (explore's drawn one); null: none, in place of the scenario's own. */
  readonly crash?: ScenarioCrash | null;
}

/** `scenario` with the override's fields; it keeps the scenario's file, so paths in it (a cassette, modules) resolve as before. */
export function withOverride(scenario: Scenario, override: ScenarioOverride | undefined): Scenario {
  if (override === undefined) return scenario;
  const { modelCassette, behaviour, crash, ...rest } = override;
  const model =
    scenario.model && (modelCassette !== undefined || behaviour !== undefined)
      ? {
          model: {
            ...scenario.model,
            ...(modelCassette !== undefined && { cassette: modelCassette }),
            ...(behaviour !== undefined && { behaviour }),
          },
        }
      : {};
  const agent =
    behaviour !== undefined && scenario.agent.kind === 'scripted' ? { agent: { ...scenario.agent, behaviour } } : {};
  const next: Scenario = { ...scenario, ...rest, ...model, ...agent };
  if (crash === null) delete next.crash;
  else if (crash !== undefined) next.crash = crash;
  return keepSource(scenario, next);
}

/** The override each variant made by `overridden` carries: a worker applies it again to the scenario it loads. */
const overrides = new WeakMap<object, ScenarioOverride>();
export const overrideOf = (scenario: object): ScenarioOverride | undefined => overrides.get(scenario);

/** `scenario` with `override`, loaded as it was (file, matrix agent, project) and carrying the override to workers. */
export function overridden(scenario: Scenario, override: ScenarioOverride): Scenario {
  const derived = keepLoaded(scenario, withOverride(scenario, override));
  overrides.set(derived, { ...overrideOf(scenario), ...override });
  return derived;
}
