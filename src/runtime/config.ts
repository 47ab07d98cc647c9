import { z } from 'zod';
import { ERROR_KINDS } from '../core/index.js';

/** How long to wait between attempts (R6). */
export const BackoffSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z.object({ kind: z.literal('fixed'), delayMs: z.number().nonnegative() }).strict(),
  z
    .object({
      kind: z.literal('exponential'),
      baseMs: z.number().positive(),
      capMs: z.number().positive(),
      multiplier: z.number().min(1).default(2),
      /** AWS's names: none, full `random(0, d)`, equal `d/2 + random(0, d/2)`, decorrelated `min(cap, random(base, prev*3))`. */
      jitter: z.enum(['none', 'full', 'equal', 'decorrelated']),
    })
    .strict(),
]);
export type Backoff = z.infer<typeof BackoffSchema>;

/**
 * A retry budget as a token bucket (R11): it starts full, every retry spends one token, and
 * tokens come back with time, so a burst of failures cannot turn into a burst of retries.
 */
export const RetryTokensSchema = z
  .object({
    /** Tokens when full, and at the start. */
    capacity: z.number().positive(),
    /** Tokens added per virtual second, up to `capacity`. */
    refillPerSecond: z.number().nonnegative(),
  })
  .strict();
export type RetryTokens = z.infer<typeof RetryTokensSchema>;

/**
 * A circuit breaker (closed, open, half-open): after `failureThreshold` consecutive failed
 * sends (5xx, 429, timeouts, network errors) it fails every send at once, without sending,
 * for `openMs`; then it lets one probe through, whose answer closes or reopens it.
 */
export const CircuitBreakerSchema = z
  .object({
    failureThreshold: z.number().int().positive(),
    openMs: z.number().positive(),
  })
  .strict();
export type CircuitBreakerConfig = z.infer<typeof CircuitBreakerSchema>;

/**
 * Google SRE's client-side adaptive throttling (SRE book ch. 21, "Handling Overload"): a
 * send is rejected locally with probability max(0, (requests − k × accepts) / (requests + 1)),
 * both counted over the trailing `windowMs`. Local rejections count as requests, a sent request counts once answered
 * (or timed out); an accept is
 * an answer that is not an overload signal (429, 5xx, a timeout or a network error). A call
 * rejected locally fails at once: it is not retried.
 */
export const AdaptiveThrottlingSchema = z
  .object({
    /** The book's K: how many requests per accept the client lets through (2 in the book). */
    k: z.number().min(1).default(2),
    /** The trailing window over which requests and accepts are counted (the book: two minutes). */
    windowMs: z.number().int().positive().default(120_000),
  })
  .strict();
export type AdaptiveThrottlingConfig = z.infer<typeof AdaptiveThrottlingSchema>;

/**
 * The AWS SDKs' retry quota ("standard" retry mode): a bucket of `capacity` tokens; a retry
 * takes `retryCost` (`timeoutRetryCost` after a timeout) or is not made; a call that succeeds
 * puts back its last retry's cost, or `noRetryIncrement` if it needed no retry.
 */
export const RetryQuotaSchema = z
  .object({
    capacity: z.number().int().positive().default(500),
    retryCost: z.number().int().positive().default(5),
    timeoutRetryCost: z.number().int().positive().default(10),
    noRetryIncrement: z.number().int().nonnegative().default(1),
  })
  .strict();
export type RetryQuotaConfig = z.infer<typeof RetryQuotaSchema>;

/**
 * A retry budget as a ratio (Finagle, gRPC, Envoy): over the trailing `windowMs`, retries
 * at most `ratio` × first attempts, plus `minPerSecond` × the window in seconds.
 */
export const RetryRatioSchema = z
  .object({
    ratio: z.number().min(0).max(1),
    windowMs: z.number().int().positive().default(10_000),
    minPerSecond: z.number().nonnegative().default(1),
  })
  .strict();
export type RetryRatioConfig = z.infer<typeof RetryRatioSchema>;

/**
 * A retry configuration (R8) as plain data: the thing users compare. Every decision the
 * reference runtime makes about retrying is read from here.
 */
export const RetryConfigSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(''),
    /** Error kinds that may be retried at all (R1). Permanent kinds listed here are still refused unless `retryPermanent`. */
    retryOn: z.array(z.enum(ERROR_KINDS)).default(['timeout', 'network', 'rate_limit', 'unavailable']),
    /** Deliberately unsafe: retry permanent errors and quota too (to show what the checkers catch). */
    retryPermanent: z.boolean().default(false),
    /** Attempts per logical call, the first included. */
    maxAttempts: z.number().int().positive().default(3),
    /** The caller's own per-attempt timeout; `null` waits forever. */
    perCallTimeoutMs: z.number().positive().nullable().default(10_000),
    /** The whole task's deadline from the trial start (R8, R9); `null` for none. */
    deadlineMs: z.number().positive().nullable().default(120_000),
    backoff: BackoffSchema.default({ kind: 'exponential', baseMs: 200, capMs: 10_000, multiplier: 2, jitter: 'full' }),
    retryAfter: z
      .object({
        /** `honour`: wait at least the server's hint (R9); `ignore`: use the backoff alone. */
        mode: z.enum(['honour', 'ignore']).default('honour'),
        /** A hint longer than this, or beyond the deadline, ends the call instead of sleeping through it. */
        maxMs: z.number().positive().default(60_000),
      })
      .strict()
      .default({ mode: 'honour', maxMs: 60_000 }),
    /** Retries (not first attempts) allowed across the whole task, shared by all tools and callers (R11); `null` for no budget. */
    retryBudget: z.number().int().nonnegative().nullable().default(10),
    idempotency: z
      .object({
        /**
         * `per-operation` reuses one key across retries (R23); `per-attempt` mints a new one each time (the classic
         * bug); `none` sends none.
         */
        keys: z.enum(['per-operation', 'per-attempt', 'none']).default('per-operation'),
        /** How a `write` may be retried (R7): only with a key the server honours, never, or always (unsafe). */
        writes: z.enum(['with-honoured-key', 'never', 'always']).default('with-honoured-key'),
      })
      .strict()
      .default({ keys: 'per-operation', writes: 'with-honoured-key' }),
    /** Retry at one layer only (R10): leave to a tool's client the errors it already retries. */
    singleLayer: z.boolean().default(true),
    /** After an unknown outcome, query the operation's status before answering (R21). */
    reconcile: z.boolean().default(true),
    /** Keep operation records (R22); without them an unknown outcome cannot be reported as such. */
    operationRecords: z.boolean().default(true),
    /**
     * Retry a 409 from an optimistic-concurrency check: another writer won the race, and a new
     * attempt reads the current version (Kubernetes' `RetryOnConflict`, Postgres serialization failures).
     */
    retryConflicts: z.boolean().default(false),
    /** A retry budget as a token bucket, per client, on top of `retryBudget`; `null` for none. */
    retryTokens: RetryTokensSchema.nullable().default(null),
    /** A circuit breaker in front of the transport, per client; `null` for none. */
    circuitBreaker: CircuitBreakerSchema.nullable().default(null),
    /*
     * Client-wide overload policies, shared by every agent of a trial (one client process for
     * the crowd). Absent when not set, so older configurations parse to the same object.
     */
    /** Google SRE's client-side adaptive throttling. */
    adaptiveThrottling: AdaptiveThrottlingSchema.optional(),
    /** The AWS SDKs' retry quota (standard retry mode). */
    retryQuota: RetryQuotaSchema.optional(),
    /** Retries at most a ratio of requests over a window (Finagle-style retry budget). */
    retryRatio: RetryRatioSchema.optional(),
  })
  .strict();

export type RetryConfig = z.infer<typeof RetryConfigSchema>;
export type RetryConfigInput = z.input<typeof RetryConfigSchema>;

/** The rulebook's defaults: every field of the schema at its default. */
export const rulebookDefault: RetryConfig = RetryConfigSchema.parse({
  name: 'rulebook',
  description:
    'The rulebook default: transient errors only, 3 attempts, full jitter, Retry-After honoured within ' +
    'the deadline, a shared retry budget, one idempotency key per operation, reconciliation after unknown outcomes.',
});
