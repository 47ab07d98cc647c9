import { sleepOn, type Clock, type TimerHandle } from './Clock.js';

/** Node's longest timer: a longer delay fires at once, with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

interface LongTimer {
  clear(): void;
}

/**
 * A timer of any length: one longer than Node's limit is armed in pieces, so a wall-clock wait
 * of 10^10 ms (a command agent's `timeoutMs`) waits, instead of firing at once as Node's would.
 */
function longTimer(arm: typeof setTimeout, ms: number, fn: () => void, unref = false): LongTimer {
  let timer: NodeJS.Timeout | undefined;
  const step = (left: number): void => {
    timer = arm(
      () => (left > MAX_TIMER_MS ? step(left - MAX_TIMER_MS) : fn()),
      Math.min(Math.max(0, left), MAX_TIMER_MS),
    );
    if (unref) timer.unref();
  };
  step(ms);
  return { clear: () => clearTimeout(timer) };
}

/** Wall-clock time, for the CLI's durations and for users who run against real services. */
export class RealClock implements Clock {
  readonly #timers = new Map<number, LongTimer>();
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
      longTimer(setTimeout, ms, () => {
        this.#timers.delete(id);
        fn();
      }),
    );
    return id as TimerHandle;
  }

  clearTimer(handle: TimerHandle): void {
    this.#timers.get(handle)?.clear();
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
  const timer = longTimer(setTimeout, ms, fn, true);
  return () => timer.clear();
}

// Taken at load: a trial in this process installs virtual timers globally, and a wait of the
// harness's own (the live gateway's backoff) must still take real time while one runs.
const realSetTimeout = globalThis.setTimeout;

/** Waits `ms` of wall-clock time, whatever timers a trial has installed meanwhile. */
export function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    longTimer(realSetTimeout, ms, resolve);
  });
}

// Taken at load, as `realSetTimeout`: a sampler of the harness's own keeps wall time while a trial's virtual timers are installed.
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;

/**
 * Calls `fn` every `ms` of wall-clock time until cancelled, whatever timers a trial has installed
 * meanwhile, without keeping the process alive by itself; returns its cancel.
 */
export function wallTicker(ms: number, fn: () => void): () => void {
  const timer = realSetInterval(fn, ms);
  timer.unref();
  return () => realClearInterval(timer);
}
