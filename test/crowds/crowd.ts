import { CellTally, type Cell } from '../../src/stats/CellTally.js';
import { loadConfigs, loadScenarios } from '../../src/scenario/library.js';
import type { Scenario } from '../../src/scenario/scenario.js';
import { runTrial, summarise, type TrialResult } from '../../src/runner/trial.js';
import type { ExecutionConfig } from '../../src/runtime/executionConfig.js';

/** A built-in configuration (scenarios/configs/crowds/ included) of any kind, by name. */
export const crowdConfig = async (name: string): Promise<ExecutionConfig> => (await loadConfigs([name]))[0]!;

export const crowdScenario = async (name: string): Promise<Scenario> => (await loadScenarios([name]))[0]!;

/** `trials` trials of `scenario` under `config` through `runTrial`, tallied as `faultline run` tallies a cell (the first failing trial kept, the others counted). */
export async function crowdCell(
  scenario: Scenario,
  config: ExecutionConfig,
  options: { readonly seed?: number; readonly trials?: number; readonly onTrial?: (t: TrialResult) => void } = {},
): Promise<Cell> {
  const tally = new CellTally(scenario.name, config.name, { scenario: scenario.name, config: config.name }, 1);
  for (let i = 0; i < (options.trials ?? 1); i++) {
    const trial = await runTrial({ scenario, config, runSeed: options.seed ?? 1, trialIndex: i });
    options.onTrial?.(trial);
    tally.add(summarise(trial, false));
  }
  return tally.cell();
}
