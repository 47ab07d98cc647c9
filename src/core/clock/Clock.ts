/** Time as the harness sees it: virtual in trials, real at the edges. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason if aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  setTimer(ms: number, fn: () => void): TimerHandle;
  clearTimer(handle: TimerHandle): void;
  /**
   * A simulated clock's turn of its own at this instant (`VirtualClock.nextTurn`), which orders work several callers
   * start at one instant by what scheduled it; absent where real time orders everything anyway.
   */
  nextTurn?(lane: number): Promise<void>;
}

export type TimerHandle = number & { readonly __timer: unique symbol };

/** Shared by both clocks so abort semantics cannot drift apart. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clock.clearTimer(handle);
      reject(signal?.reason as Error);
    };
    const handle = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
