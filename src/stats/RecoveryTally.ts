import type { Interval } from './intervals.js';
import type { DurationCounts } from './quantile.js';
import type { RecoveryStats } from './trialStats.js';

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

/** A cell's recovery figures before the interval computed from them. */
export type RecoveryCounts = Omit<RecoveryMetrics, 'interval'>;

/** The recovery figures of a cell, one trial (or one shard's cell) at a time: counts and sums. */
export class RecoveryTally {
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
