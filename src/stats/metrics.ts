import type { TrialEndKind } from '../checks/record.js';
import { CoverageTally, type RuleCoverage, type RuleInfo } from './coverage.js';
import { CrowdTally, type CrowdMetrics } from './CrowdTally.js';
import { passCurves } from './passK.js';
import type { PassIntervalCurves } from './intervals.js';
import { cellIntervals, recoveryInterval } from './rateIntervals.js';
import { quantileOf, type DurationCounts } from './quantile.js';
import { RecoveryTally, type RecoveryCounts, type RecoveryMetrics } from './RecoveryTally.js';
import type { TrialSummary } from './trialResult.js';

/** The figures of one scenario under one configuration (R30, R31). */
export interface CellMetrics {
  readonly trials: number;
  readonly successes: number;
  /** pass^k for k = 1..trials (index 0 is k = 1). */
  readonly passHat: readonly number[];
  readonly passAt: readonly number[];
  /** The 95% intervals of pass^k and pass@k at every k, computed once here for every report (`withCellFigures`). */
  readonly intervals: PassIntervalCurves;
  /** Trials each checker failed (`unknown` verdicts count as not passed). */
  readonly checkFailures: Readonly<Record<string, number>>;
  readonly ends: Readonly<Partial<Record<Exclude<TrialEndKind, 'infra_error'>, number>>>;
  /**
   * Trials the real model provider failed on its own (`--live`), beside `trials`: the agent was
   * not judged, so they are in no other figure here but `tokens` (what was spent). Absent when none.
   */
  readonly infraErrors?: number;
  readonly duplicateEffects: number;
  readonly budgetViolations: number;
  readonly calls: number;
  readonly operations: number;
  readonly attempts: number;
  readonly deliveries: number;
  /** Sends to the service side, refused or not (see `TrialStats.sends`). */
  readonly sends: number;
  readonly faults: number;
  /** Per rule of the cell's fault plan: the trials it fired in and its firings. */
  readonly coverage: readonly RuleCoverage[];
  readonly attemptsPerCall: { readonly mean: number; readonly max: number };
  /** Sends to the service side per logical operation, every retry layer included (R10). */
  readonly amplification: number;
  /** Model tokens in and out over the cell's trials (R31); a scripted model's are estimates. */
  readonly tokens: { readonly input: number; readonly output: number };
  /**
   * What the model answers cost over the cell's trials (infra errors included: they were spent), from the price
   * table; absent when the model has no price.
   */
  readonly cost?: number;
  /** `cost` per trial run (infra errors included); absent with `cost`. */
  readonly costPerTrial?: number;
  /** Virtual completion time of the trials, in ms. */
  readonly durationMs: { readonly p50: number; readonly p95: number; readonly max: number };
  /** The same times, counted: what a merge of shards needs to get the quantiles exactly. */
  readonly durations: DurationCounts;
  /** Present for a scenario that runs many agents at once (`agents` > 1). */
  readonly crowd?: CrowdMetrics;
  /** Present for a scenario that expects a recovery after its heal (`heal` and `recovery`). */
  readonly recovery?: RecoveryMetrics;
}

// Report order, whatever order trials finish in (workers answer out of order).
const END_ORDER: readonly Exclude<TrialEndKind, 'infra_error'>[] = [
  'agent_ended',
  'budget_exceeded',
  'crashed',
  'hung',
];

/**
 * Accumulates a cell's metrics one trial (or one finished shard's cell) at a time, so a run's
 * memory does not grow with its trials. Every figure is a sum, a max or a count, so the order
 * trials arrive in changes nothing.
 */
export class MetricsTally {
  #trials = 0;
  #successes = 0;
  #infraErrors = 0;
  readonly #checkFailures = new Map<string, number>();
  readonly #ends = new Map<Exclude<TrialEndKind, 'infra_error'>, number>();
  #duplicateEffects = 0;
  #budgetViolations = 0;
  #calls = 0;
  #operations = 0;
  #attempts = 0;
  #deliveries = 0;
  #sends = 0;
  #faults = 0;
  #maxAttempts = 0;
  #tokensIn = 0;
  #tokensOut = 0;
  #cost: number | undefined;
  readonly #durations = new Map<number, number>();
  #crowd: CrowdTally | undefined;
  #recovery: RecoveryTally | undefined;
  readonly #coverage: CoverageTally;

  /** `rules`: the cell's fault plan, so a rule that never fires is still listed. */
  constructor(rules: readonly RuleInfo[] = []) {
    this.#coverage = new CoverageTally(rules);
  }

  add(t: Pick<TrialSummary, 'status' | 'checks' | 'end' | 'stats' | 'cost'>): void {
    if (t.cost !== undefined) this.#cost = (this.#cost ?? 0) + t.cost;
    if (t.status === 'infra-error') {
      this.#infraErrors++;
      this.#tokensIn += t.stats.tokens.input;
      this.#tokensOut += t.stats.tokens.output;
      return;
    }
    this.#trials++;
    if (t.status === 'passed') this.#successes++;
    for (const c of t.checks) this.#count(this.#checkFailures, c.name, c.verdict.valid !== true ? 1 : 0);
    if (t.end.kind !== 'infra_error') this.#count(this.#ends, t.end.kind, 1);
    if (t.checks.some((c) => c.name === 'budget' && c.verdict.valid !== true)) this.#budgetViolations++;
    const s = t.stats;
    this.#calls += s.calls;
    this.#operations += s.operations;
    this.#attempts += s.attempts;
    this.#deliveries += s.deliveries;
    this.#sends += s.sends;
    this.#faults += s.faults;
    this.#coverage.add(s.firings);
    this.#duplicateEffects += s.duplicateEffects;
    this.#maxAttempts = Math.max(this.#maxAttempts, s.maxAttemptsPerCall);
    this.#tokensIn += s.tokens.input;
    this.#tokensOut += s.tokens.output;
    this.#count(this.#durations, s.durationMs, 1);
    if (s.crowd) (this.#crowd ??= new CrowdTally()).add(s.crowd);
    if (s.recovery)
      (this.#recovery ??= new RecoveryTally()).add(
        s.recovery,
        t.checks.some((c) => c.name === 'recovery' && c.verdict.valid === true),
      );
  }

  /** Adds another tally's finished figures (a shard's share of the same cell). */
  addMetrics(m: CellMetrics): void {
    this.#trials += m.trials;
    this.#infraErrors += m.infraErrors ?? 0;
    if (m.cost !== undefined) this.#cost = (this.#cost ?? 0) + m.cost;
    this.#successes += m.successes;
    for (const [name, n] of Object.entries(m.checkFailures)) this.#count(this.#checkFailures, name, n);
    for (const kind of END_ORDER) if (m.ends[kind] !== undefined) this.#count(this.#ends, kind, m.ends[kind]);
    this.#budgetViolations += m.budgetViolations;
    this.#calls += m.calls;
    this.#operations += m.operations;
    this.#attempts += m.attempts;
    this.#deliveries += m.deliveries;
    this.#sends += m.sends;
    this.#faults += m.faults;
    this.#coverage.addCoverage(m.coverage);
    this.#duplicateEffects += m.duplicateEffects;
    this.#maxAttempts = Math.max(this.#maxAttempts, m.attemptsPerCall.max);
    this.#tokensIn += m.tokens.input;
    this.#tokensOut += m.tokens.output;
    for (const [ms, n] of m.durations) this.#count(this.#durations, ms, n);
    if (m.crowd) (this.#crowd ??= new CrowdTally()).addMetrics(m.crowd);
    if (m.recovery) (this.#recovery ??= new RecoveryTally()).addMetrics(m.recovery);
  }

  #count<K>(map: Map<K, number>, key: K, n: number): void {
    map.set(key, (map.get(key) ?? 0) + n);
  }

  metrics(): CellMetrics {
    return withCellFigures(this.#counts());
  }

  #counts(): CellCounts {
    const n = this.#trials;
    const curves = passCurves([{ n, c: this.#successes }]);
    const durations = [...this.#durations].sort((a, b) => a[0] - b[0]);
    const ends: Partial<Record<Exclude<TrialEndKind, 'infra_error'>, number>> = {};
    for (const kind of END_ORDER) if (this.#ends.has(kind)) ends[kind] = this.#ends.get(kind)!;
    return {
      trials: n,
      successes: this.#successes,
      passHat: curves.hat,
      passAt: curves.at,
      checkFailures: Object.fromEntries(this.#checkFailures),
      ends,
      ...(this.#infraErrors > 0 && { infraErrors: this.#infraErrors }),
      duplicateEffects: this.#duplicateEffects,
      budgetViolations: this.#budgetViolations,
      calls: this.#calls,
      operations: this.#operations,
      attempts: this.#attempts,
      deliveries: this.#deliveries,
      sends: this.#sends,
      faults: this.#faults,
      coverage: this.#coverage.coverage(),
      attemptsPerCall: { mean: this.#calls === 0 ? 0 : this.#attempts / this.#calls, max: this.#maxAttempts },
      amplification: this.#operations === 0 ? 0 : this.#sends / this.#operations,
      tokens: { input: this.#tokensIn, output: this.#tokensOut },
      ...(this.#cost !== undefined && { cost: this.#cost }),
      durationMs: {
        p50: quantileOf(durations, 0.5),
        p95: quantileOf(durations, 0.95),
        max: durations.at(-1)?.[0] ?? 0,
      },
      durations,
      ...(this.#crowd && { crowd: this.#crowd.metrics() }),
      ...(this.#recovery && { recovery: this.#recovery.metrics() }),
    };
  }
}

/** A cell's counts, sums, quantiles and points: what a tally adds up and a JSON report holds, before `withCellFigures`. */
export type CellCounts = Omit<CellMetrics, 'intervals' | 'costPerTrial' | 'recovery'> & {
  readonly recovery?: RecoveryCounts;
};

/**
 * A cell's metrics with the figures its counts imply: the intervals of pass^k, pass@k and the
 * recovery rate, the cost per trial. Every path that makes a cell (a run, a merge of shards, a
 * report read back) comes through here, so each gives the same figures and no reporter computes one.
 */
export function withCellFigures(m: CellCounts): CellMetrics {
  const { recovery, ...rest } = m;
  const interval = recovery && recoveryInterval(recovery);
  const runs = m.trials + (m.infraErrors ?? 0);
  return {
    ...rest,
    intervals: cellIntervals(m),
    ...(m.cost !== undefined && { costPerTrial: m.cost / Math.max(1, runs) }),
    ...(recovery && { recovery: { ...recovery, ...(interval && { interval }) } }),
  };
}

export function cellMetrics(
  trials: readonly Pick<TrialSummary, 'status' | 'checks' | 'end' | 'stats'>[],
  rules: readonly RuleInfo[] = [],
): CellMetrics {
  const tally = new MetricsTally(rules);
  for (const t of trials) tally.add(t);
  return tally.metrics();
}
