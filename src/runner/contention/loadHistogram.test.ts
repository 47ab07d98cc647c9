import { describe, expect, it } from 'vitest';
import { bucketFor, loadHistogram, loadSeries } from './loadHistogram.js';

describe('load over time', () => {
  it('counts deliveries in 100 ms bins and reports them per second in wider buckets', () => {
    const h = loadHistogram([0, 50, 99, 100, 950, 1_000, 2_500]);
    expect(h).toEqual({ binMs: 100, counts: [3, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] });
    expect(loadSeries(h, 1_000)).toEqual([5, 1, 1]);
    expect(loadSeries(h, 100)).toEqual(h.counts.map((n) => n * 10));
  });

  it('picks the smallest readable bucket for at most 200 points', () => {
    expect([bucketFor(5_000), bucketFor(20_000), bucketFor(20_001), bucketFor(150_000), bucketFor(1e9)]).toEqual([100, 100, 200, 1_000, 3_600_000]);
  });
});
