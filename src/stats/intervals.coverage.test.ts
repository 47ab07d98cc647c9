/**
 * Coverage by simulation: at each true rate and trial count, 1,000 simulated runs (seeded, so
 * the figures are the same every time), and the share whose 95% interval holds the true rate.
 * The naive Wald interval, and the Wilson interval the first design named, are run through the
 * same check to show it can fail: both fall short at p = 0.95 with 10 trials.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../core/rng.js';
import { passIntervals, passIntervalsAt, proportionInterval, type Interval } from './intervals.js';
import type { TaskTally } from './passK.js';

const RUNS = 1000;
const FLOOR = 0.93;
const Z = 1.959963984540054;

function successes(p: number, n: number, rng: Rng): number {
  let c = 0;
  for (let i = 0; i < n; i++) if (rng.next() < p) c++;
  return c;
}

/** The share of `RUNS` simulated runs of the tasks (true rates `rates`, `n` trials each) whose interval holds `truth`. */
function coverage(
  rates: readonly number[],
  n: number,
  truth: number,
  interval: (tasks: TaskTally[]) => Interval,
  seed: number,
): number {
  const rng = new Rng(seed);
  let held = 0;
  for (let r = 0; r < RUNS; r++) {
    const [lo, hi] = interval(rates.map((p) => ({ n, c: successes(p, n, rng) })));
    if (lo <= truth && truth <= hi) held++;
  }
  return held / RUNS;
}

const wald = (c: number, n: number): Interval => {
  const p = c / n;
  const h = Z * Math.sqrt((p * (1 - p)) / n);
  return [p - h, p + h];
};
const wilson = (c: number, n: number): Interval => {
  const p = c / n;
  const d = 1 + (Z * Z) / n;
  const mid = (p + (Z * Z) / (2 * n)) / d;
  const h = (Z / d) * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n));
  return [mid - h, mid + h];
};

const RATES = [0.5, 0.8, 0.95];
const COUNTS = [10, 30, 100];
const grid = RATES.flatMap((p) => COUNTS.map((n) => [p, n] as const));
const one = (f: (c: number, n: number) => Interval) => (tasks: TaskTally[]) => f(tasks[0]!.c, tasks[0]!.n);

describe('95% intervals cover the true rate in at least 93% of 1,000 simulated runs', () => {
  it.each(grid)('pass^1 at p = %d with %d trials', (p, n) => {
    const seen = coverage([p], n, p, one(proportionInterval), 1);
    expect(seen).toBeGreaterThanOrEqual(FLOOR);
  });

  it.each(grid.flatMap(([p, n]) => [2, 4].map((k) => [p, n, k] as const)))(
    'pass^k at p = %d with %d trials, k = %d',
    (p, n, k) => {
      const seen = coverage([p], n, p ** k, (tasks) => passIntervals(tasks, k)!.passHat, 2);
      expect(seen).toBeGreaterThanOrEqual(FLOOR);
    },
  );

  it.each(grid.map(([p, n]) => [p, n, 4] as const))('pass@k at p = %d with %d trials, k = %d', (p, n, k) => {
    const seen = coverage([p], n, 1 - (1 - p) ** k, (tasks) => passIntervals(tasks, k)!.passAt, 3);
    expect(seen).toBeGreaterThanOrEqual(FLOOR);
  });

  // Several tasks (a configuration's scenarios), combined by the Monte Carlo: the truth is the mean over tasks of p^k.
  it.each([
    [[0.95, 0.8], 10],
    [[0.95, 0.8], 30],
    [[0.5, 0.8, 0.95], 10],
    [[0.5, 0.8, 0.95], 30],
  ] as const)('pass^1 and pass^4 over tasks with rates %j, %d trials each', (rates, n) => {
    const rng = new Rng(4);
    const held = [0, 0];
    const truth = [1, 4].map((k) => rates.reduce((a, p) => a + p ** k, 0) / rates.length);
    for (let r = 0; r < RUNS; r++) {
      const intervals = passIntervalsAt(
        rates.map((p) => ({ n, c: successes(p, n, rng) })),
        [1, 4],
      )!;
      intervals.forEach((interval, j) => {
        const [lo, hi] = interval.passHat;
        if (lo <= truth[j]! && truth[j]! <= hi) held[j]!++;
      });
    }
    expect(held[0]! / RUNS).toBeGreaterThanOrEqual(FLOOR);
    expect(held[1]! / RUNS).toBeGreaterThanOrEqual(FLOOR);
  });
});

describe('the coverage check can fail', () => {
  it('the Wald interval falls far short at p = 0.95 with 10 trials', () => {
    expect(coverage([0.95], 10, 0.95, one(wald), 1)).toBeLessThan(0.5);
  });

  it('so does the Wilson interval, if only just: its coverage there is 91%, the reason for exact intervals', () => {
    expect(coverage([0.95], 10, 0.95, one(wilson), 1)).toBeLessThan(FLOOR);
  });
});
