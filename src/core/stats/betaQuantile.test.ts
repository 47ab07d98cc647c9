import { describe, expect, it } from 'vitest';
import { betaQuantile, logGamma, regularizedBeta } from './betaQuantile.js';

// Reference values from scipy 1.17.1 (scipy.special.gammaln, betainc; scipy.stats.beta.ppf).
describe('logGamma', () => {
  it.each([
    [0.5, 0.5723649429247],
    [1, 0],
    [3.7, 1.428072326665388],
    [10, 12.801827480081469],
    [100, 359.1342053695754],
    [1234.5, 7550.550901077894],
  ])('ln Γ(%d) = %d', (x, want) => {
    expect(logGamma(x)).toBeCloseTo(want, 12);
  });

  it('refuses x <= 0', () => {
    expect(() => logGamma(0)).toThrow(RangeError);
  });
});

describe('regularizedBeta', () => {
  it.each([
    [0.3, 2, 3, 0.3483],
    [0.9, 10.5, 0.5, 0.141553091812887],
    [0.5, 100, 120, 0.9117960627949818],
    [0.01, 0.5, 0.5, 0.06376856085851985],
  ])('I_%d(%d, %d)', (x, a, b, want) => {
    expect(regularizedBeta(x, a, b)).toBeCloseTo(want, 12);
  });

  it('is 0 and 1 at the ends', () => {
    expect(regularizedBeta(0, 2, 3)).toBe(0);
    expect(regularizedBeta(1, 2, 3)).toBe(1);
  });
});

describe('betaQuantile', () => {
  it.each([
    [0.025, 4, 1, 0.3976353643835253],
    [0.975, 1, 4, 0.6023646356164746],
    [0.025, 8, 3, 0.4439045376923585],
    [0.975, 9, 2, 0.9747892736731666],
    [0.025, 10.5, 0.5, 0.7828037324907894],
    [0.975, 0.5, 10.5, 0.21719626750921053],
    [0.5, 2, 3, 0.3857275681323895],
    [0.001, 0.5, 0.5, 2.4673990709169446e-6],
    [0.999, 200, 3, 0.9990525137036208],
    [0.025, 1000, 1, 0.9963179161031344],
    [0.3, 50, 60, 0.42940973156743795],
    [0.05, 2.5, 7.5, 0.06731161356870272],
  ])('the %d-quantile of Beta(%d, %d)', (q, a, b, want) => {
    expect(betaQuantile(q, a, b)).toBeCloseTo(want, 12);
  });

  it('inverts regularizedBeta over a grid of shapes', () => {
    for (const [a, b] of [
      [0.5, 0.5],
      [1, 1],
      [3, 40],
      [40, 3],
      [0.7, 12],
      [500, 2],
      [2, 5000],
    ] as const) {
      for (const q of [1e-6, 0.01, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999]) {
        expect(regularizedBeta(betaQuantile(q, a, b), a, b)).toBeCloseTo(q, 10);
      }
    }
  });

  it('is exact at the closed forms: Beta(a, 1) has quantile q^(1/a)', () => {
    for (const a of [1, 4, 71, 2000]) expect(betaQuantile(0.025, a, 1)).toBeCloseTo(0.025 ** (1 / a), 13);
  });

  it('refuses bad shapes and probabilities', () => {
    expect(() => betaQuantile(0.5, 0, 1)).toThrow(RangeError);
    expect(() => betaQuantile(1.5, 1, 1)).toThrow(RangeError);
  });
});
