import type { Clock, TimerHandle } from './Clock.js';

/** What `installLibraryTimers` returns: undo it once. */
export interface LibraryTimers {
  uninstall(): void;
}

/** A timer handle that looks enough like Node's `Timeout` for libraries that call `unref()` on it. */
class ClockTimeout {
  constructor(readonly handle: TimerHandle) {}
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  hasRef(): boolean {
    return false;
  }
  [Symbol.toPrimitive](): number {
    return this.handle;
  }
}

type AnyFn = (...args: unknown[]) => void;

/**
 * Runs third-party retry libraries (cockatiel, p-retry) on `clock`: swaps the global
 * `setTimeout`, `setInterval`, their `clear*`, `Date.now` and `performance.now` for ones that
 * read and schedule on the clock, every delay included (zero too, so their order is the
 * clock's, not the event loop's). Unlike `installVirtualTimers` it keeps nothing real:
 * meant for code that does no real I/O while it is installed. Restores exactly what was there.
 */
export function installLibraryTimers(clock: Clock): LibraryTimers {
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = {
    setTimeout: g['setTimeout'],
    clearTimeout: g['clearTimeout'],
    setInterval: g['setInterval'],
    clearInterval: g['clearInterval'],
    dateNow: Object.getOwnPropertyDescriptor(Date, 'now'),
    perfNow: Object.getOwnPropertyDescriptor(performance, 'now'),
  };
  const origin = clock.now();
  const delay = (ms: unknown): number => {
    const n = Number(ms);
    return Number.isFinite(n) && n > 0 ? n : 0;
  };
  const clear = (t: unknown): void => {
    if (t instanceof ClockTimeout) clock.clearTimer(t.handle);
  };
  g['setTimeout'] = (fn: AnyFn, ms?: unknown, ...args: unknown[]): ClockTimeout => new ClockTimeout(clock.setTimer(delay(ms), () => fn(...args)));
  g['clearTimeout'] = clear;
  g['setInterval'] = (fn: AnyFn, ms?: unknown, ...args: unknown[]): ClockTimeout => {
    // Re-armed under the same handle object, so clearInterval stops the current one.
    const every = Math.max(1, delay(ms));
    const timeout = new ClockTimeout(clock.setTimer(every, function tick() {
      (timeout as { handle: TimerHandle }).handle = clock.setTimer(every, tick);
      fn(...args);
    }));
    return timeout;
  };
  g['clearInterval'] = clear;
  Object.defineProperty(Date, 'now', { configurable: true, writable: true, value: () => clock.now() });
  // performance.now counts from the process start; from the install is as good for measuring durations.
  Object.defineProperty(performance, 'now', { configurable: true, writable: true, value: () => clock.now() - origin });
  let installed = true;
  return {
    uninstall(): void {
      if (!installed) return;
      installed = false;
      g['setTimeout'] = saved.setTimeout;
      g['clearTimeout'] = saved.clearTimeout;
      g['setInterval'] = saved.setInterval;
      g['clearInterval'] = saved.clearInterval;
      if (saved.dateNow) Object.defineProperty(Date, 'now', saved.dateNow);
      else delete (Date as { now?: unknown }).now;
      if (saved.perfNow) Object.defineProperty(performance, 'now', saved.perfNow);
      else delete (performance as { now?: unknown }).now;
    },
  };
}
