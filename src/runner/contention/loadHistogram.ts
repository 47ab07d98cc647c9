/** Deliveries counted in fixed bins of virtual time from the trial start. */
export interface LoadHistogram {
  readonly binMs: number;
  readonly counts: readonly number[];
}

/** The finest bins kept per trial; reports merge them into coarser ones. */
export const LOAD_BIN_MS = 100;

export function loadHistogram(times: readonly number[], binMs = LOAD_BIN_MS): LoadHistogram {
  const counts: number[] = [];
  for (const t of times) {
    const i = Math.floor(t / binMs);
    while (counts.length <= i) counts.push(0);
    counts[i]!++;
  }
  return { binMs, counts };
}

/** Bucket widths a chart reads easily. */
const NICE_MS = [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];

/** The smallest nice bucket that shows `durationMs` in at most `maxPoints` points. */
export function bucketFor(durationMs: number, maxPoints = 200): number {
  return NICE_MS.find((ms) => durationMs / ms <= maxPoints) ?? NICE_MS.at(-1)!;
}

/** Deliveries per virtual second in buckets of `bucketMs` (a multiple of the histogram's bins). */
export function loadSeries(h: LoadHistogram, bucketMs: number): number[] {
  const per = Math.max(1, Math.round(bucketMs / h.binMs));
  const out: number[] = [];
  for (let i = 0; i < h.counts.length; i += per) {
    let n = 0;
    for (let j = i; j < Math.min(i + per, h.counts.length); j++) n += h.counts[j]!;
    out.push((n * 1000) / bucketMs);
  }
  return out;
}
