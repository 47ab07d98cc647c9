/** Nearest-rank quantile of `xs` (q in [0, 1]); 0 for an empty list. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** Virtual completion times as `[ms, trials]`, by ms: exact quantiles in memory bounded by distinct values, and mergeable. */
export type DurationCounts = readonly (readonly [ms: number, trials: number])[];

/** Nearest-rank quantile over counted values (the same answer as `quantile` over the listed values). */
export function quantileOf(counts: DurationCounts, q: number): number {
  const total = counts.reduce((a, [, n]) => a + n, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [ms, n] of counts) {
    seen += n;
    if (seen >= rank) return ms;
  }
  return counts.at(-1)![0];
}
