import {
  DEFAULT_CONFIDENCE,
  passIntervalCurves,
  proportionInterval,
  type Interval,
  type PassIntervalCurves,
} from './intervals.js';

/** What an interval is computed from: successes of trials (a cell, or one task of a configuration). */
export interface RateTally {
  readonly trials: number;
  readonly successes: number;
}

/** A cell's intervals at every k: one task, `successes` of `trials`. */
export const cellIntervals = (m: RateTally, confidence = DEFAULT_CONFIDENCE): PassIntervalCurves =>
  passIntervalCurves(m.trials === 0 ? [] : [{ n: m.trials, c: m.successes }], confidence);

/** A configuration's intervals at every k over its cells, each scenario a task (as its pass^k is); cells without trials are no task. */
export const configIntervals = (
  cells: readonly { readonly metrics: RateTally }[],
  confidence = DEFAULT_CONFIDENCE,
): PassIntervalCurves =>
  passIntervalCurves(
    cells.filter((c) => c.metrics.trials > 0).map((c) => ({ n: c.metrics.trials, c: c.metrics.successes })),
    confidence,
  );

/** The recovery rate's exact interval at 95%, as a `recovery@95%` gate bounds it; undefined when no trial was judged. */
export const recoveryInterval = (r: { readonly trials: number; readonly recovered: number }): Interval | undefined =>
  r.trials === 0 ? undefined : proportionInterval(r.recovered, r.trials);
