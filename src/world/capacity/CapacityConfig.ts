import { z } from 'zod';

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
    rateLimit: z.object({ perSecond: z.number().positive(), burst: z.number().int().positive() }).strict().nullable().default(null),
  })
  .strict();
export type CapacityConfig = z.infer<typeof CapacitySchema>;
export type CapacityConfigInput = z.input<typeof CapacitySchema>;
