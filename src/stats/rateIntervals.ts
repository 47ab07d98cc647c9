import { DEFAULT_CONFIDENCE, passIntervalCurves, type Interval, type PassIntervalCurves } from './intervals.js';
import type { CellMetrics } from './metrics.js';
import type { RunResult } from './runResult.js';

/** A cell's intervals at every k: one task, `successes` of `trials`. */
export const cellIntervals = (m: Pick<CellMetrics, 'trials' | 'successes'>, confidence = DEFAULT_CONFIDENCE): PassIntervalCurves =>
  passIntervalCurves(m.trials === 0 ? [] : [{ n: m.trials, c: m.successes }], confidence);

/** A configuration's intervals at every k, each of its scenarios a task (as its pass^k is). */
export function configIntervals(run: RunResult, config: string, confidence = DEFAULT_CONFIDENCE): PassIntervalCurves {
  const tasks = run.cells.filter((c) => c.config === config && c.metrics.trials > 0).map((c) => ({ n: c.metrics.trials, c: c.metrics.successes }));
  return passIntervalCurves(tasks, confidence);
}

/** `[0.40, 1.00]`: two decimals, as wide as the figures' precision deserves; empty when missing. */
export const formatInterval = (i: Interval | undefined): string => (i === undefined ? '' : `[${i[0].toFixed(2)}, ${i[1].toFixed(2)}]`);

/** A rate and its interval: `0.750 [0.30, 0.95]`; the rate alone when there is no interval. */
export const formatRateWithInterval = (rate: string, i: Interval | undefined): string => (i === undefined ? rate : `${rate} ${formatInterval(i)}`);

/** `95%`, as the column headers and notes name the confidence. */
export const confidenceText = (c: number): string => `${Number((c * 100).toFixed(6))}%`;
