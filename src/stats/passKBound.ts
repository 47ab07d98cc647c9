// What `toHavePassK(k, { atLeast, confidence })` judges, beside the gates' own bounds (gates.ts).
import { passIntervals, type Interval, type PassIntervalCurves } from './intervals.js';
import type { RateTally } from './rateIntervals.js';

/**
 * pass^k's two-sided exact interval for a cell at any confidence (a matcher's bound): the cell's
 * own figures at the default confidence, the same computation at another. k is 1..trials.
 */
export function passKBound(
  m: RateTally & { readonly intervals?: PassIntervalCurves },
  k: number,
  confidence: number,
): Interval {
  const known = m.intervals?.confidence === confidence ? m.intervals.hat[k - 1] : undefined;
  return known ?? passIntervals([{ n: m.trials, c: m.successes }], k, confidence)!.passHat;
}

/**
 * Trials that must all pass for the lower bound of pass^k at `confidence` to reach `atLeast`:
 * with n of n passing, the bound is (α/2)^(k/n); undefined when no count reaches it.
 */
export function allPassingTrialsNeeded(k: number, atLeast: number, confidence: number): number | undefined {
  if (atLeast <= 0) return 1;
  if (atLeast >= 1) return undefined;
  return Math.ceil((k * Math.log((1 - confidence) / 2)) / Math.log(atLeast) - 1e-9);
}
