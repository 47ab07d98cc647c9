import { inSlice, type Shard } from './shard.js';

/** One trial to run: its cell (configuration-major, as reports list them) and its index there. */
export interface TrialJob {
  readonly cell: number;
  readonly scenario: number;
  readonly config: number;
  readonly trialIndex: number;
}

/**
 * The run's trials in report order, or this shard's slice of them. `runs` leaves cells out of
 * the product: an agent that ignores retry configurations runs under the first one only.
 */
export function matrixJobs(
  scenarios: number,
  configs: number,
  k: number,
  shard?: Shard,
  runs: (scenario: number, config: number) => boolean = () => true,
): TrialJob[] {
  const jobs: TrialJob[] = [];
  for (let config = 0; config < configs; config++) {
    for (let scenario = 0; scenario < scenarios; scenario++) {
      const cell = config * scenarios + scenario;
      if (!runs(scenario, config)) continue;
      for (let trialIndex = 0; trialIndex < k; trialIndex++) {
        if (shard === undefined || inSlice(cell * k + trialIndex, shard))
          jobs.push({ cell, scenario, config, trialIndex });
      }
    }
  }
  return jobs;
}
