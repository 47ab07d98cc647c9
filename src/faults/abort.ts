import { AbortRelay } from '../core/AbortRelay.js';

/** Rejects with the signal's reason once it aborts; never settles without a signal. */
export function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  if (!signal) return new Promise<never>(() => {});
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<never>((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

/**
 * Settles like `work`, or rejects with the signal's reason if it aborts first. The abort
 * listener is removed as soon as `work` settles, so nothing outlives the race.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  const relay = AbortRelay.of(signal);
  // A reused send signal: its relay stands for the listener, with the same promise hops.
  if (relay?.idle) {
    return new Promise<T>((resolve, reject) => {
      relay.hold(() => reject(signal.reason as Error));
      work.then(
        (value) => {
          relay.release();
          resolve(value);
        },
        (error: unknown) => {
          relay.release();
          reject(error as Error);
        },
      );
    });
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
