import { describe, expect, it } from 'vitest';
import { Rng } from '../rng.js';
import { nthSmallest } from './nthSmallest.js';

describe('nthSmallest', () => {
  it('gives what a sort gives at every rank, with runs of equal values among random ones', () => {
    const rng = new Rng(11);
    for (let round = 0; round < 40; round++) {
      const n = 1 + Math.floor(rng.next() * 60);
      const values = Float64Array.from({ length: n }, () =>
        rng.next() < 0.3 ? Math.floor(rng.next() * 3) : rng.next(),
      );
      const sorted = Float64Array.from(values).sort();
      for (let rank = 0; rank < n; rank++)
        expect(nthSmallest(Float64Array.from(values), 0, n, rank)).toBe(sorted[rank]);
    }
  });

  it('selects inside a range of a larger array and leaves the rest alone', () => {
    const values = Float64Array.from([9, 9, 0.5, 0.1, 0.3, 0.2, 9]);
    expect(nthSmallest(values, 2, 6, 1)).toBe(0.2);
    expect([values[0], values[1], values[6]]).toEqual([9, 9, 9]);
    expect([...values.subarray(2, 6)].sort()).toEqual([0.1, 0.2, 0.3, 0.5]);
  });

  it('handles a range all of one value and sorted or reversed input', () => {
    expect(nthSmallest(new Float64Array(1000).fill(1), 0, 1000, 974)).toBe(1);
    const up = Float64Array.from({ length: 4000 }, (_, i) => i / 4000);
    expect(nthSmallest(Float64Array.from(up), 0, 4000, 99)).toBe(99 / 4000);
    expect(nthSmallest(Float64Array.from(up).reverse(), 0, 4000, 3899)).toBe(3899 / 4000);
  });

  it('refuses a rank outside the range', () => {
    expect(() => nthSmallest(new Float64Array(3), 0, 3, 3)).toThrow(RangeError);
    expect(() => nthSmallest(new Float64Array(3), 1, 3, -1)).toThrow(RangeError);
  });
});
