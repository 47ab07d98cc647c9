import { describe, expect, it } from 'vitest';
import { DistributionSchema, sample, type Distribution } from './distribution.js';
import { formatIssues } from './zodIssues.js';
import { Rng } from './rng.js';

const N = 200_000;

function moments(
  dist: Distribution,
  seed = 1,
): { mean: number; sd: number; min: number; median: number; zeros: number } {
  const rng = new Rng(seed);
  const xs = Array.from({ length: N }, () => sample(dist, rng));
  const mean = xs.reduce((a, b) => a + b, 0) / N;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (N - 1));
  const sorted = [...xs].sort((a, b) => a - b);
  return { mean, sd, min: sorted[0]!, median: sorted[N / 2]!, zeros: xs.filter((x) => x === 0).length };
}

/** Relative closeness: `tolerance` of the expected value. */
const near = (actual: number, expected: number, tolerance = 0.01) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * tolerance);

describe('sample', () => {
  it('constant: every draw is the value', () => {
    const m = moments({ kind: 'constant', ms: 7.5 });
    expect([m.mean, m.sd, m.min]).toEqual([7.5, 0, 7.5]);
  });

  it('uniform: mean (min+max)/2, sd (max-min)/√12, never below min', () => {
    const m = moments({ kind: 'uniform', minMs: 4, maxMs: 16 });
    near(m.mean, 10);
    near(m.sd, 12 / Math.sqrt(12));
    expect(m.min).toBeGreaterThanOrEqual(4);
  });

  it('normal: the mean and sd it was given (N(10, 2), as AWS simulates a network leg)', () => {
    const m = moments({ kind: 'normal', meanMs: 10, sdMs: 2 });
    near(m.mean, 10);
    near(m.sd, 2);
  });

  it('normal truncated at zero by redrawing: N(0, 1) becomes the half-normal, with no pile of zeros', () => {
    const m = moments({ kind: 'normal', meanMs: 0, sdMs: 1 });
    // Half-normal: mean √(2/π), sd √(1 − 2/π). Clamping would give mean 0.40 and half the draws at 0.
    near(m.mean, Math.sqrt(2 / Math.PI));
    near(m.sd, Math.sqrt(1 - 2 / Math.PI));
    expect(m.min).toBeGreaterThanOrEqual(0);
    expect(m.zeros).toBe(0);
  });

  it('lognormal from a median and a spread: median e^mu, mean e^(mu+σ²/2)', () => {
    const m = moments({ kind: 'lognormal', medianMs: 10, sigma: 0.5 });
    near(m.median, 10);
    near(m.mean, 10 * Math.exp(0.125));
    near(m.sd, 10 * Math.exp(0.125) * Math.sqrt(Math.exp(0.25) - 1), 0.02);
  });

  it('lognormal from mu and sigma draws what the median form draws', () => {
    const rngA = new Rng(3);
    const rngB = new Rng(3);
    const a = Array.from({ length: 100 }, () => sample({ kind: 'lognormal', medianMs: 20, sigma: 0.3 }, rngA));
    const b = Array.from({ length: 100 }, () => sample({ kind: 'lognormal', mu: Math.log(20), sigma: 0.3 }, rngB));
    b.forEach((x, i) => expect(x).toBeCloseTo(a[i]!, 9));
  });

  it('exponential: mean and sd both meanMs', () => {
    const m = moments({ kind: 'exponential', meanMs: 5 });
    near(m.mean, 5);
    near(m.sd, 5, 0.02);
    expect(m.min).toBeGreaterThanOrEqual(0);
  });

  it('is deterministic from the rng: the same seed draws the same values, another seed others', () => {
    const draws = (seed: number) => {
      const rng = new Rng(seed);
      return Array.from({ length: 5 }, () => sample({ kind: 'normal', meanMs: 10, sdMs: 2 }, rng));
    };
    expect(draws(9)).toEqual(draws(9));
    expect(draws(9)).not.toEqual(draws(10));
  });
});

describe('DistributionSchema', () => {
  const refusal = (input: unknown): string[] => {
    const parsed = DistributionSchema.safeParse(input);
    return parsed.success ? [] : formatIssues(parsed.error.issues);
  };

  it('accepts every kind', () => {
    for (const d of [
      { kind: 'constant', ms: 0 },
      { kind: 'uniform', minMs: 3, maxMs: 3 },
      { kind: 'normal', meanMs: 10, sdMs: 0 },
      { kind: 'lognormal', medianMs: 10, sigma: 1 },
      { kind: 'lognormal', mu: 2, sigma: 1 },
      { kind: 'exponential', meanMs: 1 },
    ])
      expect(refusal(d)).toEqual([]);
  });

  it('refuses bad parameters, naming the field and what was wrong', () => {
    expect(refusal({ kind: 'normal', meanMs: 10, sdMs: -1 })).toEqual([
      'sdMs: sdMs is a standard deviation: it cannot be negative',
    ]);
    expect(refusal({ kind: 'uniform', minMs: 20, maxMs: 10 })).toEqual(['maxMs: minMs must not exceed maxMs']);
    expect(refusal({ kind: 'lognormal', medianMs: 10, mu: 2, sigma: 1 })).toEqual([
      'medianMs: give exactly one of medianMs and mu',
    ]);
    expect(refusal({ kind: 'lognormal', sigma: 1 })).toEqual(['medianMs: give exactly one of medianMs and mu']);
    expect(refusal({ kind: 'lognormal', medianMs: 0, sigma: 1 })).toEqual([
      'medianMs: medianMs must be above 0 (it is e^mu)',
    ]);
    expect(refusal({ kind: 'lognormal', medianMs: 5, sigma: -0.1 })).toEqual([
      'sigma: sigma is a standard deviation of the logarithm: it cannot be negative',
    ]);
    expect(refusal({ kind: 'constant', ms: -1 })[0]).toMatch(/^ms: /);
    expect(refusal({ kind: 'exponential', meanMs: 5, sdMs: 1 })[0]).toMatch(/sdMs/);
    expect(refusal({ kind: 'gamma', meanMs: 5 })[0]).toMatch(/^kind: .*constant/);
  });
});
