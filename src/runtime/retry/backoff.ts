import type { Rng } from '../../core/index.js';
import type { Backoff } from '../config.js';

/**
 * The wait before retry number `retry` (1 = the first retry), in whole milliseconds (R6).
 * `previousMs` is the last wait, which only decorrelated jitter reads (0 before the first).
 * Randomness comes from the trial's `rng`, so a seed replays the same waits.
 *
 * @example backoffDelay({ kind: 'exponential', baseMs: 100, capMs: 1000, multiplier: 2, jitter: 'none' }, 3, 0, rng) // 400
 */
export function backoffDelay(backoff: Backoff, retry: number, previousMs: number, rng: Rng): number {
  switch (backoff.kind) {
    case 'none':
      return 0;
    case 'fixed':
      return backoff.delayMs;
    case 'exponential': {
      const { baseMs, capMs, multiplier } = backoff;
      const d = Math.min(capMs, baseMs * multiplier ** Math.max(0, retry - 1));
      switch (backoff.jitter) {
        case 'none':
          return Math.floor(d);
        case 'full':
          return Math.floor(rng.between(0, d));
        case 'equal':
          return Math.floor(d / 2 + rng.between(0, d / 2));
        case 'decorrelated': {
          // AWS's "decorrelated jitter" grows from the last sleep, seeded with the base.
          const previous = Math.max(baseMs, previousMs);
          return Math.floor(Math.min(capMs, rng.between(baseMs, previous * 3)));
        }
      }
    }
  }
}
