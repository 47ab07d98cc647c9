import { AbortRelay } from '../core/AbortRelay.js';
import { takenReject, takenResolve, takeResolvers } from '../core/takeResolvers.js';
import type { Clock } from '../core/index.js';

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
    // Every send of a crowd races here. The executor runs at once, as an inline one would: its resolving functions are
    // taken out of it, so the race makes no executor closure, and its three hooks share one context.
    const raced = new Promise<T>(takeResolvers);
    const reject = takenReject();
    const resolve = takenResolve<T>();
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
    return raced;
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

/**
 * `clock.sleep(ms, signal)` for a send that is racing `signal` (`raceAbort`) on a reused signal:
 * the relay's second hook stands for the abort listener the sleep would add, so a network leg
 * costs no `EventTarget` listener added and removed. Same timer, same promise hops, and on abort
 * the same calls in the same order (the race's rejection, then the timer cleared and the sleep
 * rejected). Any other signal sleeps as `clock.sleep` does.
 */
export function sleepRelayed(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  const relay = signal && AbortRelay.of(signal);
  // A held hook means the signal has not aborted: the abort's dispatch lets go of every hook.
  if (!signal || !relay?.takesNext) return clock.sleep(ms, signal);
  return new Promise<void>((resolve, reject) => {
    const handle = clock.setTimer(ms, () => {
      relay.releaseNext();
      resolve();
    });
    relay.holdNext(() => {
      clock.clearTimer(handle);
      reject(signal.reason as Error);
    });
  });
}
