import type { Rng } from '../../core/index.js';

/** A fresh idempotency key, from the trial's rng so a replay sends the same keys. */
export const newIdempotencyKey = (rng: Rng): string => `idem-${rng.hex(16)}`;
