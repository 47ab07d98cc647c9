/** The index of the first of the ascending `seqs` greater than `seq` (`seqs.length` if none): a binary search. */
export function firstAfter(seqs: readonly number[], seq: number): number {
  let lo = 0;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (seqs[mid]! > seq) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The index of the last of the ascending integer `seqs` smaller than `seq` (-1 if none). */
export const lastBefore = (seqs: readonly number[], seq: number): number => firstAfter(seqs, seq - 1) - 1;
