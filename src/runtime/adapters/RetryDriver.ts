/** One attempt, as a retry library calls it: sends once, resolves with the answer or throws `AttemptFailed`. */
export type AttemptFn = (signal?: AbortSignal) => Promise<unknown>;

/** Callbacks a driver reports through, when its library tells it. */
export interface RetryDriverHooks {
  /** The library chose to wait `ms` before the next attempt. */
  readonly onWait?: (ms: number) => void;
}

/**
 * A third-party retry library driving the attempts of one logical call. It decides when to
 * retry and how long to wait; the executor around it records every attempt in the history.
 */
export interface RetryDriver {
  readonly library: 'cockatiel' | 'p-retry';
  /** Resolves with the first successful answer; rejects with what the library gave up on. */
  execute(attempt: AttemptFn, hooks: RetryDriverHooks): Promise<unknown>;
}
