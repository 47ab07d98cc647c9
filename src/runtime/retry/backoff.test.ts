import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/index.js';
import type { Backoff } from '../config.js';
import { backoffDelay } from './backoff.js';

const exp = (jitter: 'none' | 'full' | 'equal' | 'decorrelated'): Backoff => ({
  kind: 'exponential',
  baseMs: 100,
  capMs: 2_000,
  multiplier: 2,
  jitter,
});
const draws = (b: Backoff, seed: number): number[] => {
  const rng = new Rng(seed);
  let prev = 0;
  return [1, 2, 3, 4, 5, 6].map((retry) => (prev = backoffDelay(b, retry, prev, rng)));
};

describe('backoffDelay', () => {
  it('none and fixed ignore the retry number', () => {
    expect(draws({ kind: 'none' }, 1)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(draws({ kind: 'fixed', delayMs: 250 }, 1)).toEqual([250, 250, 250, 250, 250, 250]);
  });

  it('exponential without jitter doubles up to the cap', () => {
    expect(draws(exp('none'), 1)).toEqual([100, 200, 400, 800, 1_600, 2_000]);
    expect(draws({ ...exp('none'), multiplier: 3 } as Backoff, 1)).toEqual([100, 300, 900, 2_000, 2_000, 2_000]);
  });

  it.each(['full', 'equal', 'decorrelated'] as const)(
    '%s jitter gives the same waits for the same seed, other waits for another',
    (jitter) => {
      expect(draws(exp(jitter), 42)).toEqual(draws(exp(jitter), 42));
      expect(draws(exp(jitter), 42)).not.toEqual(draws(exp(jitter), 43));
    },
  );

  test.prop([fc.integer(), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 5_000 })])(
    'each jitter stays in its range',
    (seed, retry, prev) => {
      const rng = new Rng(seed);
      const d = Math.min(2_000, 100 * 2 ** (retry - 1));
      const full = backoffDelay(exp('full'), retry, prev, rng);
      expect(full).toBeGreaterThanOrEqual(0);
      expect(full).toBeLessThanOrEqual(d);
      const equal = backoffDelay(exp('equal'), retry, prev, rng);
      expect(equal).toBeGreaterThanOrEqual(Math.floor(d / 2));
      expect(equal).toBeLessThanOrEqual(d);
      const dec = backoffDelay(exp('decorrelated'), retry, prev, rng);
      expect(dec).toBeGreaterThanOrEqual(100);
      expect(dec).toBeLessThanOrEqual(Math.min(2_000, Math.max(100, prev) * 3));
      expect(Number.isInteger(full) && Number.isInteger(equal) && Number.isInteger(dec)).toBe(true);
    },
  );
});
