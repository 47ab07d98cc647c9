import type { TrialEndKind } from '../checks/record.js';
import { passAtK, passHatK, type TaskTally } from './passK.js';
import { quantile } from './quantile.js';
import type { TrialResult } from './trial.js';

/** The figures of one scenario under one configuration (R30, R31). */
export interface CellMetrics {
  readonly trials: number;
  readonly successes: number;
  /** pass^k for k = 1..trials (index 0 is k = 1). */
  readonly passHat: readonly number[];
  readonly passAt: readonly number[];
  /** Trials each checker failed (`unknown` verdicts count as not passed). */
  readonly checkFailures: Readonly<Record<string, number>>;
  readonly ends: Readonly<Partial<Record<TrialEndKind, number>>>;
  readonly duplicateEffects: number;
  readonly budgetViolations: number;
  readonly calls: number;
  readonly operations: number;
  readonly attempts: number;
  readonly deliveries: number;
  /** Sends to the service side, refused or not (see `TrialStats.sends`). */
  readonly sends: number;
  readonly faults: number;
  readonly attemptsPerCall: { readonly mean: number; readonly max: number };
  /** Sends to the service side per logical operation, every retry layer included (R10). */
  readonly amplification: number;
  /** Virtual completion time of the trials, in ms. */
  readonly durationMs: { readonly p50: number; readonly p95: number; readonly max: number };
}

export function cellMetrics(trials: readonly TrialResult[]): CellMetrics {
  const n = trials.length;
  const successes = trials.filter((t) => t.status === 'passed').length;
  const tally: TaskTally[] = [{ n, c: successes }];
  const checkFailures: Record<string, number> = {};
  const ends: Partial<Record<TrialEndKind, number>> = {};
  let calls = 0, operations = 0, attempts = 0, deliveries = 0, sends = 0, faults = 0, duplicateEffects = 0, budgetViolations = 0, maxAttempts = 0;
  for (const t of trials) {
    for (const c of t.checks) {
      checkFailures[c.name] ??= 0;
      if (c.verdict.valid !== true) checkFailures[c.name]!++;
    }
    ends[t.end.kind] = (ends[t.end.kind] ?? 0) + 1;
    if (t.checks.some((c) => c.name === 'budget' && c.verdict.valid !== true)) budgetViolations++;
    calls += t.stats.calls;
    operations += t.stats.operations;
    attempts += t.stats.attempts;
    deliveries += t.stats.deliveries;
    sends += t.stats.sends;
    faults += t.stats.faults;
    duplicateEffects += t.stats.duplicateEffects;
    maxAttempts = Math.max(maxAttempts, t.stats.maxAttemptsPerCall);
  }
  const durations = trials.map((t) => t.stats.durationMs);
  const ks = Array.from({ length: n }, (_, i) => i + 1);
  return {
    trials: n,
    successes,
    passHat: ks.map((k) => passHatK(tally, k) ?? 0),
    passAt: ks.map((k) => passAtK(tally, k) ?? 0),
    checkFailures,
    ends,
    duplicateEffects,
    budgetViolations,
    calls,
    operations,
    attempts,
    deliveries,
    sends,
    faults,
    attemptsPerCall: { mean: calls === 0 ? 0 : attempts / calls, max: maxAttempts },
    amplification: operations === 0 ? 0 : sends / operations,
    durationMs: { p50: quantile(durations, 0.5), p95: quantile(durations, 0.95), max: Math.max(0, ...durations) },
  };
}

/** One configuration across every scenario: each scenario is a task for pass^k. */
export interface ConfigMetrics {
  readonly config: string;
  readonly scenarios: number;
  readonly trials: number;
  readonly successes: number;
  readonly passHat: readonly number[];
  readonly passAt: readonly number[];
  readonly duplicateEffects: number;
  readonly budgetViolations: number;
  readonly amplification: number;
  /** Scenarios with at least one failed trial. */
  readonly failingScenarios: readonly string[];
}

export function configMetrics(config: string, cells: readonly { scenario: string; metrics: CellMetrics }[]): ConfigMetrics {
  const tallies = cells.map((c) => ({ n: c.metrics.trials, c: c.metrics.successes }));
  const minN = Math.min(...tallies.map((t) => t.n));
  const ks = Number.isFinite(minN) ? Array.from({ length: minN }, (_, i) => i + 1) : [];
  const sum = (f: (m: CellMetrics) => number): number => cells.reduce((a, c) => a + f(c.metrics), 0);
  const operations = sum((m) => m.operations);
  return {
    config,
    scenarios: cells.length,
    trials: sum((m) => m.trials),
    successes: sum((m) => m.successes),
    passHat: ks.map((k) => passHatK(tallies, k) ?? 0),
    passAt: ks.map((k) => passAtK(tallies, k) ?? 0),
    duplicateEffects: sum((m) => m.duplicateEffects),
    budgetViolations: sum((m) => m.budgetViolations),
    amplification: operations === 0 ? 0 : sum((m) => m.sends) / operations,
    failingScenarios: cells.filter((c) => c.metrics.successes < c.metrics.trials).map((c) => c.scenario),
  };
}
