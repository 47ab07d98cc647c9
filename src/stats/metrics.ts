import type { TrialEndKind } from '../checks/record.js';
import { CoverageTally, type RuleCoverage, type RuleInfo } from './coverage.js';
import { passCurves } from './passK.js';
import type { Interval, PassIntervalCurves } from './intervals.js';
import { cellIntervals, recoveryInterval } from './rateIntervals.js';
import type { TrialSummary } from './trialResult.js';
import { LOAD_BIN_MS, type CrowdStats, type RecoveryStats } from './trialStats.js';

/** What the cells of a many-agent scenario add: the figures of the agents, over every trial (R10, R31). */
export interface CrowdMetrics {
  /** Agent runs: agents × trials. */
  readonly agents: number;
  /** Agents whose own end was an accepted outcome. */
  readonly succeeded: number;
  readonly successRate: number;
  /** Virtual time each agent took from its start to its end, in ms. */
  readonly completionMs: { readonly p50: number; readonly p95: number; readonly max: number };
  /** The same times, counted, as `[ms, agents]`: what a merge needs to get the quantiles exactly. */
  readonly completions: DurationCounts;
  /** Answers of 429 or 503, and the virtual ms calls spent from one to their next send, summed. */
  readonly throttled: { readonly responses: number; readonly ms: number };
  /** The most sends one logical operation caused, every retry layer included (R10). */
  readonly maxSendsPerOperation: number;
  /** Width of the load bins, in virtual ms. */
  readonly loadBinMs: number;
  /** Deliveries to the services per bin from the trial's start, summed over the trials. */
  readonly load: readonly number[];
  /** The agents' calls that succeeded, per bin of the same width, summed over the trials. */
  readonly goodput: readonly number[];
}

/** What the cells of a scenario with `heal` and `recovery` add: how the trials came back once the faults ended. */
export interface RecoveryMetrics {
  /** Trials judged for recovery. */
  readonly trials: number;
  /** Trials that passed the `recovery` checker. */
  readonly recovered: number;
  readonly rate: number;
  /** The rate's two-sided exact interval at 95%; absent when no trial was judged. */
  readonly interval?: Interval;
  /**
   * Virtual ms from the heal to the goal, over every trial judged, a trial that never reached
   * its goal counting as longer than any: a quantile that falls among those is null (never).
   */
  readonly timeToRecoverMs: { readonly p50: number | null; readonly p95: number | null; readonly max: number | null };
  /** The times of the trials that reached their goal, counted as `[ms, trials]`: what a merge needs. */
  readonly times: DurationCounts;
  /** Trials that never reached their goal. */
  readonly never: number;
  /** Logical tool calls started after the heal, over the trials. */
  readonly callsAfter: number;
}

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

/** Virtual completion times as `[ms, trials]`, by ms: exact quantiles in memory bounded by distinct values, and mergeable. */
export type DurationCounts = readonly (readonly [ms: number, trials: number])[];

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

/** A cell's recovery figures before the interval computed from them. */
export type RecoveryCounts = Omit<RecoveryMetrics, 'interval'>;

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

/** The recovery figures of a cell, one trial (or one shard's cell) at a time: counts and sums. */
class RecoveryTally {
  #trials = 0;
  #recovered = 0;
  #never = 0;
  #callsAfter = 0;
  readonly #times = new Map<number, number>();

  add(r: RecoveryStats, recovered: boolean): void {
    this.#trials++;
    if (recovered) this.#recovered++;
    this.#callsAfter += r.callsAfter;
    if (r.timeToRecoverMs === null) this.#never++;
    else this.#times.set(r.timeToRecoverMs, (this.#times.get(r.timeToRecoverMs) ?? 0) + 1);
  }

  addMetrics(m: RecoveryMetrics): void {
    this.#trials += m.trials;
    this.#recovered += m.recovered;
    this.#never += m.never;
    this.#callsAfter += m.callsAfter;
    for (const [ms, n] of m.times) this.#times.set(ms, (this.#times.get(ms) ?? 0) + n);
  }

  metrics(): RecoveryCounts {
    const times = [...this.#times].sort((a, b) => a[0] - b[0]);
    const q = (p: number): number | null => recoveryQuantile(times, this.#never, p);
    return {
      trials: this.#trials,
      recovered: this.#recovered,
      rate: this.#trials === 0 ? 0 : this.#recovered / this.#trials,
      timeToRecoverMs: { p50: q(0.5), p95: q(0.95), max: this.#never > 0 ? null : (times.at(-1)?.[0] ?? null) },
      times,
      never: this.#never,
      callsAfter: this.#callsAfter,
    };
  }
}

/**
 * Nearest-rank quantile of the times to recover, `never` trials ranked after every time:
 * null when the rank falls among them (or there are no trials).
 */
export function recoveryQuantile(times: DurationCounts, never: number, q: number): number | null {
  const reached = times.reduce((a, [, n]) => a + n, 0);
  const total = reached + never;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [ms, n] of times) {
    seen += n;
    if (seen >= rank) return ms;
  }
  return null;
}

/** The crowd figures of a cell, one trial (or one shard's cell) at a time: sums, maxima and counts. */
class CrowdTally {
  #agents = 0;
  #succeeded = 0;
  readonly #completions = new Map<number, number>();
  #throttledResponses = 0;
  #throttledMs = 0;
  #maxSends = 0;
  readonly #load: number[] = [];
  readonly #goodput: number[] = [];

  add(c: CrowdStats): void {
    this.#agents += c.agents;
    this.#succeeded += c.succeeded;
    for (const [ms, n] of c.completionMs) this.#completions.set(ms, (this.#completions.get(ms) ?? 0) + n);
    this.#throttledResponses += c.throttled.responses;
    this.#throttledMs += c.throttled.ms;
    this.#maxSends = Math.max(this.#maxSends, c.maxSendsPerOperation);
    addBins(this.#load, c.load);
    addBins(this.#goodput, c.goodput);
  }

  addMetrics(m: CrowdMetrics): void {
    this.add({
      agents: m.agents,
      succeeded: m.succeeded,
      completionMs: m.completions,
      throttled: m.throttled,
      maxSendsPerOperation: m.maxSendsPerOperation,
      load: m.load,
      goodput: m.goodput,
    });
  }

  metrics(): CrowdMetrics {
    const completions = [...this.#completions].sort((a, b) => a[0] - b[0]);
    return {
      agents: this.#agents,
      succeeded: this.#succeeded,
      successRate: this.#agents === 0 ? 0 : this.#succeeded / this.#agents,
      completionMs: {
        p50: quantileOf(completions, 0.5),
        p95: quantileOf(completions, 0.95),
        max: completions.at(-1)?.[0] ?? 0,
      },
      completions,
      throttled: { responses: this.#throttledResponses, ms: this.#throttledMs },
      maxSendsPerOperation: this.#maxSends,
      loadBinMs: LOAD_BIN_MS,
      load: Array.from(this.#load, (n) => n ?? 0),
      goodput: Array.from(this.#goodput, (n) => n ?? 0),
    };
  }
}

function addBins(into: number[], bins: readonly number[]): void {
  bins.forEach((n, i) => (into[i] = (into[i] ?? 0) + n));
}

/** Nearest-rank quantile over counted values (the same answer as `quantile` over the listed values). */
export function quantileOf(counts: DurationCounts, q: number): number {
  const total = counts.reduce((a, [, n]) => a + n, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [ms, n] of counts) {
    seen += n;
    if (seen >= rank) return ms;
  }
  return counts.at(-1)![0];
}

export function cellMetrics(
  trials: readonly Pick<TrialSummary, 'status' | 'checks' | 'end' | 'stats'>[],
  rules: readonly RuleInfo[] = [],
): CellMetrics {
  const tally = new MetricsTally(rules);
  for (const t of trials) tally.add(t);
  return tally.metrics();
}
