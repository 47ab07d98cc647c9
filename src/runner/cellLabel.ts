import { describeBehaviour } from '../model/behaviours.js';
import { matrixAgentOf } from '../scenario/library.js';
import { overrideOf } from '../scenario/scenarioOverride.js';
import type { Scenario } from '../scenario/scenario.js';

/**
 * Which cells of scenarios × configurations run: a matrix agent that ignores retry
 * configurations (`http`, `command`) runs under the first one only, so a comparison never shows
 * identical columns for configurations that could not reach it.
 */
export const cellRuns =
  (scenarios: readonly Scenario[]) =>
  (scenario: number, config: number): boolean =>
    config === 0 || matrixAgentOf(scenarios[scenario]!)?.ignoresConfig !== true;

/** The stand-in's behaviour a run gave the scenario (`--behaviour`), as the flag names it. */
const behaviourOf = (scenario: Scenario): string | undefined => {
  const behaviour = overrideOf(scenario)?.behaviour;
  return behaviour === undefined ? undefined : describeBehaviour(behaviour);
};

/**
 * How a cell is labelled in every report (its column): by what varies. The configuration when
 * the scenario has no matrix agent; the agent for one that ignores configurations; for a
 * runtime-driven agent, the configuration when several are compared, the agent when one is, and
 * `agent/config` when both vary among them. Several behaviours (`--behaviour a,b`) add the
 * behaviour: alone when nothing else varies, else after the rest (`rulebook/careful`).
 */
export function cellLabeller(
  scenarios: readonly Scenario[],
  configs: readonly { readonly name: string }[],
): (scenario: Scenario, config: string) => string {
  const runtimeAgents = new Set(
    scenarios
      .map((s) => matrixAgentOf(s))
      .filter((a) => a !== undefined && !a.ignoresConfig)
      .map((a) => a!.name),
  );
  const behaviours = new Set(scenarios.map(behaviourOf).filter((b) => b !== undefined));
  const base = (scenario: Scenario, config: string): string => {
    const agent = matrixAgentOf(scenario);
    if (agent === undefined) return config;
    if (agent.ignoresConfig || configs.length === 1) return agent.name;
    return runtimeAgents.size > 1 ? `${agent.name}/${config}` : config;
  };
  return (scenario, config) => {
    const behaviour = behaviours.size > 1 ? behaviourOf(scenario) : undefined;
    if (behaviour === undefined) return base(scenario, config);
    return configs.length === 1 && matrixAgentOf(scenario) === undefined
      ? behaviour
      : `${base(scenario, config)}/${behaviour}`;
  };
}

/**
 * A run's columns: the labels of the cells that run, each once, configuration by configuration
 * (with an agents matrix, the agents, not the configurations the cells ran under).
 */
export function cellColumns(scenarios: readonly Scenario[], configs: readonly { readonly name: string }[]): string[] {
  const label = cellLabeller(scenarios, configs);
  const runs = cellRuns(scenarios);
  return [
    ...new Set(
      configs.flatMap((config, c) =>
        scenarios.flatMap((scenario, s) => (runs(s, c) ? [label(scenario, config.name)] : [])),
      ),
    ),
  ];
}
