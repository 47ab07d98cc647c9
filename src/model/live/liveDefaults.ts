// The live gateway's defaults, apart from the gateway: the CLI's flags print them in every
// command's help, and loading the gateway (the model formats, the HTTP forwarding) for that
// would cost every run that is not --live.

/** What the gateway does about a provider's own failures (documented in docs/real-models.md, "Run against your real model"). */
export interface LiveRetryPolicy {
  /** Retries after the first attempt (default 4: five attempts in all). */
  readonly retries: number;
  /** The first backoff, doubled on each retry up to `maxBackoffMs` (no jitter: the waits are the same from run to run). */
  readonly baseMs: number;
  readonly maxBackoffMs: number;
  /** The longest `Retry-After` it honours; a longer one is waited this long. */
  readonly maxRetryAfterMs: number;
  /** An attempt with no answer (or no next byte of one) for this long is a timeout. */
  readonly timeoutMs: number;
}

export const DEFAULT_LIVE_RETRY: LiveRetryPolicy = {
  retries: 4,
  baseMs: 500,
  maxBackoffMs: 8_000,
  maxRetryAfterMs: 60_000,
  timeoutMs: 120_000,
};
export const DEFAULT_MAX_CONNECTIONS = 8;
