/**
 * The value `sorted[rank]` would hold if `values[from, to)` were sorted ascending, found by
 * selection (Hoare's FIND, Wirth's form) in O(n) on average instead of a whole sort; it reorders
 * that range in place. An order statistic is one value whatever the method, so it equals what a
 * sort would give, and runs of equal values (a rate of 0 or 1 on every draw) do not slow it.
 * `values` must hold no NaN.
 */
export function nthSmallest(values: Float64Array, from: number, to: number, rank: number): number {
  if (!(rank >= 0 && rank < to - from)) throw new RangeError(`rank ${rank} outside 0..${to - from - 1}`);
  const k = from + rank;
  let lo = from;
  let hi = to - 1;
  while (lo < hi) {
    const pivot = values[k]!;
    let i = lo;
    let j = hi;
    do {
      while (values[i]! < pivot) i++;
      while (pivot < values[j]!) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) lo = i;
    if (k < i) hi = j;
  }
  return values[k]!;
}
