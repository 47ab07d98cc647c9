import { sleepOn, type Clock, type TimerHandle } from './Clock.js';

/** Wall-clock time, for the CLI's durations and for users who run against real services. */
export class RealClock implements Clock {
  readonly #timers = new Map<number, NodeJS.Timeout>();
  #nextId = 1;

  now(): number {
    return Date.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const id = this.#nextId++;
    this.#timers.set(
      id,
      setTimeout(() => {
        this.#timers.delete(id);
        fn();
      }, Math.max(0, ms)),
    );
    return id as TimerHandle;
  }

  clearTimer(handle: TimerHandle): void {
    const t = this.#timers.get(handle);
    if (t !== undefined) clearTimeout(t);
    this.#timers.delete(handle);
  }
}

/** Monotonic milliseconds for measuring wall durations (benchmarks, report timings). */
export const wallMs = (): number => performance.now();

/**
 * A wall-clock deadline that does not by itself keep the process alive (so an empty event loop
 * still ends it, or fires `beforeExit`); returns its cancel.
 */
export function wallDeadline(ms: number, fn: () => void): () => void {
  const timer = setTimeout(fn, Math.max(0, ms));
  timer.unref();
  return () => clearTimeout(timer);
}

// Taken at load: a trial in this process installs virtual timers globally, and a wait of the
// harness's own (the live gateway's backoff) must still take real time while one runs.
const realSetTimeout = globalThis.setTimeout;

/** Waits `ms` of wall-clock time, whatever timers a trial has installed meanwhile. */
export function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    realSetTimeout(resolve, Math.max(0, ms));
  });
}
