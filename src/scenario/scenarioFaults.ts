import type { Rng } from '../core/index.js';
import { NetworkLatency } from '../faults/network.js';
import type { FaultPlan } from '../faults/plan.js';
import { healOption } from './heal.js';
import type { Scenario } from './scenario.js';

/** What a fault engine (the in-process `Wire`, or `HttpFaults` on real traffic) takes from the scenario. */
export interface ScenarioFaults {
  readonly plan: FaultPlan;
  readonly rng: Rng;
  readonly network?: NetworkLatency;
  readonly healAtMs?: number;
}

/**
 * The scenario's faults as a fault engine takes them: the plan drawing on the trial's `faults`
 * fork, the network's latency, and the heal (`scheduleHeal` marks it in the history). One place
 * for all three engines (the wire, the intercepted and the served HTTP), so a trial draws the
 * same whichever way its agent reaches the tools.
 */
export function scenarioFaults(scenario: Pick<Scenario, 'faults' | 'network' | 'heal'>, rng: Rng): ScenarioFaults {
  // Latency draws have a fork of their own: a scenario without `network` draws nothing, and one with it shifts no fault draw.
  const network = scenario.network && new NetworkLatency(scenario.network, rng.fork('network'));
  return { plan: scenario.faults, rng: rng.fork('faults'), ...(network && { network }), ...healOption(scenario) };
}
