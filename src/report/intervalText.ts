import type { Interval } from '../stats/intervals.js';

/** `[0.40, 1.00]`: two decimals, as wide as the figures' precision deserves; empty when missing. */
export const formatInterval = (i: Interval | undefined): string =>
  i === undefined ? '' : `[${i[0].toFixed(2)}, ${i[1].toFixed(2)}]`;

/** A rate and its interval: `0.750 [0.30, 0.95]`; the rate alone when there is no interval. */
export const formatRateWithInterval = (rate: string, i: Interval | undefined): string =>
  i === undefined ? rate : `${rate} ${formatInterval(i)}`;

/** `95%`, as the column headers and notes name the confidence. */
export const confidenceText = (c: number): string => `${Number((c * 100).toFixed(6))}%`;
