import type { PassIntervalCurves } from './intervals.js';
import type { CellMetrics } from './metrics.js';
import { quantileOf, type DurationCounts } from './quantile.js';
import { passCurves } from './passK.js';
import { configIntervals } from './rateIntervals.js';

/** Every duration of several cells together (a configuration's p95 across its scenarios). */
export function mergedDurations(cells: readonly { metrics: CellMetrics }[]): DurationCounts {
  const all = new Map<number, number>();
  for (const c of cells) for (const [ms, n] of c.metrics.durations) all.set(ms, (all.get(ms) ?? 0) + n);
  return [...all].sort((a, b) => a[0] - b[0]);
}

/** One configuration across every scenario: each scenario is a task for pass^k. */
export interface ConfigMetrics {
  readonly config: string;
  readonly scenarios: number;
  readonly trials: number;
  readonly successes: number;
  readonly passHat: readonly number[];
  readonly passAt: readonly number[];
  /** The 95% intervals of pass^k and pass@k at every k over the scenarios (a seeded Monte Carlo; exact for one). */
  readonly intervals: PassIntervalCurves;
  readonly duplicateEffects: number;
  readonly budgetViolations: number;
  readonly amplification: number;
  /** Scenarios with at least one failed trial. */
  readonly failingScenarios: readonly string[];
  /** Completion times over every trial of every scenario (the cells' `durations` together). */
  readonly durationMs: { readonly p50: number; readonly p95: number; readonly max: number };
  /** Model tokens in and out over the scenarios. */
  readonly tokens: { readonly input: number; readonly output: number };
}

export function configMetrics(
  config: string,
  cells: readonly { scenario: string; metrics: CellMetrics }[],
): ConfigMetrics {
  const curves = passCurves(cells.map((c) => ({ n: c.metrics.trials, c: c.metrics.successes })));
  const sum = (f: (m: CellMetrics) => number): number => cells.reduce((a, c) => a + f(c.metrics), 0);
  const operations = sum((m) => m.operations);
  const durations = mergedDurations(cells);
  return {
    config,
    scenarios: cells.length,
    trials: sum((m) => m.trials),
    successes: sum((m) => m.successes),
    passHat: curves.hat,
    passAt: curves.at,
    intervals: configIntervals(cells),
    duplicateEffects: sum((m) => m.duplicateEffects),
    budgetViolations: sum((m) => m.budgetViolations),
    amplification: operations === 0 ? 0 : sum((m) => m.sends) / operations,
    failingScenarios: cells.filter((c) => c.metrics.successes < c.metrics.trials).map((c) => c.scenario),
    durationMs: { p50: quantileOf(durations, 0.5), p95: quantileOf(durations, 0.95), max: durations.at(-1)?.[0] ?? 0 },
    tokens: { input: sum((m) => m.tokens.input), output: sum((m) => m.tokens.output) },
  };
}
