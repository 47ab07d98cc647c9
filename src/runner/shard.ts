import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';

import type { Shard } from '../stats/runResult.js';

export type { Shard };

/**
 * Whether the trial at `position` (its place in report order) belongs to the shard. Trials are
 * dealt round-robin, so every shard gets a share of every cell and the slices balance.
 */
export const inSlice = (position: number, shard: Shard): boolean => position % shard.count === shard.index - 1;

/** `2/4` → `{ index: 2, count: 4 }`; throws FAULTLINE_USAGE on anything else. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `expected a shard as i/n with 1 <= i <= n (e.g. 2/4), got "${text}"`,
    );
  }
  return { index, count };
}
