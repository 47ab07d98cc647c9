import { describe, expect, it } from 'vitest';
import { passIntervalCurves, passIntervals, passIntervalsAt, proportionInterval } from './intervals.js';
import { passCurves } from './passK.js';

// Clopper–Pearson reference values from scipy 1.17.1 (scipy.stats.beta.ppf of the bounding Betas).
describe('proportionInterval (Clopper–Pearson)', () => {
  it.each([
    [0, 4, 0, 0.6023646356164746],
    [4, 4, 0.3976353643835254, 1],
    [8, 10, 0.4439045376923585, 0.9747892736731666],
    [2, 4, 0.067585986488543, 0.932414013511457],
    [95, 100, 0.8871650888945373, 0.9835681208179479],
    [0, 1, 0, 0.975],
  ])('%d of %d at 95%%', (c, n, lo, hi) => {
    const [l, u] = proportionInterval(c, n);
    expect(l).toBeCloseTo(lo, 12);
    expect(u).toBeCloseTo(hi, 12);
  });

  it('narrows as the confidence falls', () => {
    const [l, u] = proportionInterval(8, 10, 0.9);
    expect(l).toBeCloseTo(0.4930986989367976, 12);
    expect(u).toBeCloseTo(0.9632285621125349, 12);
  });

  it('refuses counts and confidences that mean nothing', () => {
    expect(() => proportionInterval(5, 4)).toThrow(RangeError);
    expect(() => proportionInterval(1, 0)).toThrow(RangeError);
    expect(() => proportionInterval(1, 2, 1)).toThrow(RangeError);
  });
});

describe('passIntervals', () => {
  it("carries one task's interval through p^k and 1 - (1 - p)^k", () => {
    const [lo, hi] = proportionInterval(5, 8);
    const got = passIntervals([{ n: 8, c: 5 }], 3)!;
    expect(got.passHat[0]).toBeCloseTo(lo ** 3, 14);
    expect(got.passHat[1]).toBeCloseTo(hi ** 3, 14);
    expect(got.passAt[0]).toBeCloseTo(1 - (1 - lo) ** 3, 14);
    expect(got.passAt[1]).toBeCloseTo(1 - (1 - hi) ** 3, 14);
  });

  it('widens to hold its own point estimate where the unbiased estimator leaves p^k behind', () => {
    // 9 of 10: pass^10 is 0 (no 10 of 10 passed) and pass@2 is 1 (any 2 trials hold a pass).
    const curves = passIntervalCurves([{ n: 10, c: 9 }]);
    expect(curves.hat[9]![0]).toBe(0);
    expect(curves.at[1]![1]).toBe(1);
    expect(curves.hat[0]![0]).toBeCloseTo(proportionInterval(9, 10)[0], 14);
  });

  it('is undefined where the point estimate is', () => {
    expect(passIntervals([], 1)).toBeUndefined();
    expect(passIntervals([{ n: 2, c: 2 }], 3)).toBeUndefined();
  });

  it('combines several tasks by Monte Carlo: the same counts give the same interval, and it holds the point', () => {
    const tasks = [
      { n: 10, c: 10 },
      { n: 10, c: 7 },
      { n: 10, c: 9 },
    ];
    const a = passIntervalCurves(tasks);
    expect(passIntervalCurves(tasks)).toEqual(a);
    const points = passCurves(tasks);
    a.hat.forEach(([lo, hi], i) => {
      expect(lo).toBeLessThanOrEqual(points.hat[i]!);
      expect(hi).toBeGreaterThanOrEqual(points.hat[i]!);
    });
    a.at.forEach(([lo, hi], i) => {
      expect(lo).toBeLessThanOrEqual(points.at[i]!);
      expect(hi).toBeGreaterThanOrEqual(points.at[i]!);
    });
  });

  it('agrees with the exact interval when every task has the same counts (the Monte Carlo of one Beta)', () => {
    // Two identical all-passing tasks: mean of P1^k, P2^k is narrower than one task's, never wider.
    const one = passIntervals([{ n: 20, c: 20 }], 1)!;
    const two = passIntervals(
      [
        { n: 20, c: 20 },
        { n: 20, c: 20 },
      ],
      1,
    )!;
    expect(two.passHat[0]).toBeGreaterThanOrEqual(one.passHat[0] - 0.01);
    expect(two.passHat[1]).toBe(1);
  });

  it('reaches the ends: all tasks failing gives a lower bound of 0', () => {
    const got = passIntervals(
      [
        { n: 5, c: 0 },
        { n: 5, c: 0 },
      ],
      2,
    )!;
    expect(got.passHat[0]).toBe(0);
    expect(got.passHat[1]).toBeGreaterThan(0);
  });
});

describe('passIntervalsAt', () => {
  it('gives at each k what passIntervals and passIntervalCurves give', () => {
    const tasks = [
      { n: 6, c: 6 },
      { n: 6, c: 4 },
    ];
    const [k1, k4] = passIntervalsAt(tasks, [1, 4])!;
    expect(k1).toEqual(passIntervals(tasks, 1));
    expect(k4).toEqual(passIntervals(tasks, 4));
    const curves = passIntervalCurves(tasks);
    expect(curves.hat[3]).toEqual(k4!.passHat);
    expect(curves.at[0]).toEqual(k1!.passAt);
  });
});
