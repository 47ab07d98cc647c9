import { z } from 'zod';

/**
 * A window in which the service has fewer slots: the trigger of a metastable failure (a
 * deploy, a lost host, a noisy neighbour). Times are virtual ms from the trial's start; the
 * window is `[fromMs, toMs)`. Requests already running keep their slot; new ones queue or
 * are refused as the smaller number says, and the queue moves again when the window ends.
 */
export const CapacityDropSchema = z
  .object({
    fromMs: z.number().int().nonnegative(),
    toMs: z.number().int().positive(),
    /** Slots during the window; 0 for none (every request queues or is refused). */
    maxConcurrent: z.number().int().nonnegative(),
  })
  .strict()
  .refine((d) => d.toMs > d.fromMs, { message: 'expected toMs after fromMs', path: ['toMs'] });
export type CapacityDrop = z.infer<typeof CapacityDropSchema>;

/**
 * A service's finite capacity: a rate limit (429 with Retry-After) and a bounded number of
 * requests in progress, with a bounded queue in front (503 when both are full). Overload is
 * not scripted: it emerges when the clients' load exceeds these numbers.
 */
export const CapacitySchema = z
  .object({
    /** Requests processed at once; `null` for no limit. */
    maxConcurrent: z.number().int().positive().nullable().default(null),
    /** Requests that may wait for a free slot (first come, first served); the rest are refused. */
    queueLimit: z.number().int().nonnegative().default(0),
    /** The answer when slots and queue are full: 503, or 429 as some APIs answer overload. */
    overloadStatus: z.union([z.literal(503), z.literal(429)]).default(503),
    /** Retry-After sent with that answer, in ms (sent as seconds and as `retry-after-ms`); `null` for none. */
    overloadRetryAfterMs: z.number().positive().nullable().default(null),
    /** A token bucket per service: `burst` at once, `perSecond` on average; `null` for none. */
    rateLimit: z
      .object({ perSecond: z.number().positive(), burst: z.number().int().positive() })
      .strict()
      .nullable()
      .default(null),
    /**
     * Windows of reduced capacity, in time order and not overlapping; absent: none (kept absent, so the parsed
     * options of older scenarios do not change).
     */
    drops: z
      .array(CapacityDropSchema)
      .optional()
      .superRefine((drops = [], ctx) => {
        drops.forEach((d, i) => {
          const before = drops[i - 1];
          if (before !== undefined && d.fromMs < before.toMs)
            ctx.addIssue({
              code: 'custom',
              path: [i, 'fromMs'],
              message:
                `expected drops in time order, not overlapping: this one starts at ${d.fromMs} ms, ` +
                `before the previous one ends (${before.toMs} ms)`,
            });
        });
      }),
  })
  .strict();
export type CapacityConfig = z.infer<typeof CapacitySchema>;
export type CapacityConfigInput = z.input<typeof CapacitySchema>;
