import type { RetryConfig } from '../runtime/config.js';
import { cellMetrics, configMetrics, type CellMetrics, type ConfigMetrics } from './metrics.js';
import type { Scenario } from './scenario.js';
import { refOf } from './library.js';
import { runTrial, type TrialResult } from './trial.js';

export interface Cell {
  readonly scenario: string;
  readonly config: string;
  readonly trials: readonly TrialResult[];
  readonly metrics: CellMetrics;
}

/** A whole run: every scenario crossed with every configuration, k trials each. */
export interface RunResult {
  readonly seed: number;
  readonly k: number;
  readonly scenarios: readonly string[];
  readonly configs: readonly string[];
  readonly cells: readonly Cell[];
  readonly byConfig: readonly ConfigMetrics[];
  /** True when the run was stopped before every trial ran; the cells hold what finished. */
  readonly interrupted: boolean;
}

export interface RunOptions {
  readonly scenarios: readonly Scenario[];
  readonly configs: readonly RetryConfig[];
  readonly k: number;
  readonly seed: number;
  /** Aborting stops after the trial in progress; the result holds every finished trial. */
  readonly signal?: AbortSignal;
  readonly onTrial?: (trial: TrialResult, done: number, total: number) => void;
}

export async function runMatrix({ scenarios, configs, k, seed, signal, onTrial }: RunOptions): Promise<RunResult> {
  const total = scenarios.length * configs.length * k;
  const cells: Cell[] = [];
  let done = 0;
  let interrupted = false;
  outer: for (const config of configs) {
    for (const scenario of scenarios) {
      const trials: TrialResult[] = [];
      for (let i = 0; i < k; i++) {
        if (signal?.aborted) {
          interrupted = true;
          if (trials.length > 0) cells.push(cell(scenario.name, config.name, trials));
          break outer;
        }
        const trial = await runTrial({ scenario, config, runSeed: seed, trialIndex: i, refs: { scenario: refOf(scenario), config: refOf(config) } });
        trials.push(trial);
        onTrial?.(trial, ++done, total);
      }
      cells.push(cell(scenario.name, config.name, trials));
    }
  }
  const configNames = configs.map((c) => c.name);
  return {
    seed,
    k,
    scenarios: scenarios.map((s) => s.name),
    configs: configNames,
    cells,
    byConfig: configNames
      .map((name) => configMetrics(name, cells.filter((c) => c.config === name)))
      .filter((m) => m.scenarios > 0),
    interrupted,
  };
}

const cell = (scenario: string, config: string, trials: readonly TrialResult[]): Cell => ({
  scenario,
  config,
  trials,
  metrics: cellMetrics(trials),
});
