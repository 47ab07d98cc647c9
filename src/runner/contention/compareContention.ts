import { trialSeed } from '../../core/index.js';
import type { ContentionConfig, ContentionConfigKind } from './ContentionConfig.js';
import type { ContentionScenario } from './ContentionScenario.js';
import { contentionMetrics, type ContentionMetrics } from './contentionMetrics.js';
import { bucketFor, loadSeries } from './loadHistogram.js';
import { runContentionTrial, type ContentionTrial } from './runContentionTrial.js';

/** One configuration's row of a contention comparison. */
export interface ContentionResult {
  readonly config: string;
  readonly kind: ContentionConfigKind;
  readonly description: string;
  readonly metrics: ContentionMetrics;
  /** Deliveries per virtual second in the comparison's buckets, from the first trial. */
  readonly load: readonly number[];
  /** One per trial: the same seed gives the same hashes. */
  readonly historyHashes: readonly string[];
}

/** Every configuration under one contention scenario. */
export interface ContentionComparison {
  readonly scenario: { readonly name: string; readonly title: string; readonly description: string; readonly agents: number; readonly callsPerAgent: number; readonly service: string };
  readonly seed: number;
  readonly trials: number;
  readonly maxDeliveriesPerCall: number;
  /** Width of the load buckets, shared by every configuration so their curves compare. */
  readonly loadBucketMs: number;
  readonly results: readonly ContentionResult[];
}

export interface CompareContentionOptions {
  readonly scenario: ContentionScenario;
  readonly configs: readonly ContentionConfig[];
  readonly seed: number;
  /** Trials per configuration (default 1): each is the whole crowd of agents again, with another seed. */
  readonly trials?: number;
  readonly signal?: AbortSignal;
  readonly onTrial?: (trial: ContentionTrial, done: number, total: number) => void;
}

/**
 * Runs every configuration under the scenario, `trials` times each, and sums them up. Trial
 * seeds come from the run seed, the scenario, the configuration and the trial index, as in
 * `faultline run`, so one configuration's figures do not depend on which others ran.
 */
export async function compareContention({ scenario, configs, seed, trials = 1, signal, onTrial }: CompareContentionOptions): Promise<ContentionComparison> {
  const runs: { config: ContentionConfig; trials: ContentionTrial[] }[] = [];
  let done = 0;
  for (const config of configs) {
    const own: ContentionTrial[] = [];
    for (let i = 0; i < trials && !signal?.aborted; i++) {
      const trial = await runContentionTrial({ scenario, config, seed: trialSeed(seed, scenario.name, config.name, i), trialIndex: i });
      own.push(trial);
      onTrial?.(trial, ++done, configs.length * trials);
    }
    if (own.length > 0) runs.push({ config, trials: own });
  }
  const longest = Math.max(1, ...runs.map((r) => r.trials[0]!.stats.load.counts.length * r.trials[0]!.stats.load.binMs));
  const loadBucketMs = bucketFor(longest);
  return {
    scenario: {
      name: scenario.name,
      title: scenario.title,
      description: scenario.description,
      agents: scenario.agents,
      callsPerAgent: scenario.callsPerAgent,
      service: scenario.service.kind,
    },
    seed,
    trials,
    maxDeliveriesPerCall: scenario.budget.maxDeliveriesPerCall,
    loadBucketMs,
    results: runs.map(({ config, trials: ts }) => ({
      config: config.name,
      kind: config.kind,
      description: config.description,
      metrics: contentionMetrics(scenario, ts),
      load: loadSeries(ts[0]!.stats.load, loadBucketMs),
      historyHashes: ts.map((t) => t.historyHash),
    })),
  };
}
