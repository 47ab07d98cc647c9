import http from 'node:http';
import type { TimerHandle } from './Clock.js';
import type { ClockRun, VirtualClock } from './VirtualClock.js';

export interface VirtualTimersOptions {
  /** Also answer `Date.now()` from the clock, so a client dating a `Retry-After` agrees with the server (default true). */
  readonly date?: boolean;
  /** Also run `ClientRequest#setTimeout` (node:http socket timeouts) on the clock (default true). */
  readonly sockets?: boolean;
  /**
   * Answer `Math.random()` from this source (a fork of the trial's rng), so an SDK's backoff
   * jitter replays exactly. Left alone when absent.
   */
  readonly random?: { next(): number };
}

/** What `installVirtualTimers` returns: undo it once, in any order of nesting. */
export interface VirtualTimers {
  uninstall(): void;
}

const TIMEOUT_MAX = 2 ** 31 - 1;

/**
 * A virtual timer dressed as Node's `Timeout`: clients call `unref()`, `refresh()`, or use
 * it as a number, and must not crash on ours.
 */
class VirtualTimeout {
  #handle: TimerHandle;
  constructor(
    private readonly clock: VirtualClock,
    private readonly ms: number,
    private readonly fire: () => void,
    private readonly repeat: boolean,
  ) {
    this.#handle = this.#arm();
  }

  #arm(): TimerHandle {
    return this.clock.setTimer(this.ms, () => {
      if (this.repeat) this.#handle = this.#arm();
      this.fire();
    });
  }

  clear(): void {
    this.clock.clearTimer(this.#handle);
  }

  refresh(): this {
    this.clear();
    this.#handle = this.#arm();
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  hasRef(): boolean {
    return false;
  }

  close(): this {
    this.clear();
    return this;
  }

  [Symbol.toPrimitive](): number {
    return this.#handle;
  }
}

/** Node coerces a missing, negative or oversized delay to 1 ms; so do we. A fraction fires at the next whole ms. */
function delayOf(ms: unknown): number {
  const n = Number(ms);
  return n >= 1 && n <= TIMEOUT_MAX ? Math.ceil(n) : 1;
}

/** A zero delay asks for "the next turn", not for virtual time: interception libraries rely on it. */
const isZero = (ms: unknown): boolean => ms === undefined || !(Number(ms) >= 1);

type AnyFn = (...args: unknown[]) => void;

/**
 * Swaps `setTimeout`, `setInterval`, their `clear*`, `AbortSignal.timeout`, `Date.now`,
 * node:http request timeouts (and, given a source, `Math.random`) for ones that run on `clock`, so an unmodified client's own
 * timeout (30 s), retry backoff or socket timeout costs virtual time, not wall time.
 * A zero-delay `setTimeout` stays real (libraries use it to yield a turn) but is held on
 * the clock until it fires, so virtual time cannot overtake it. Install it around the
 * trial body only; `uninstall` restores exactly what was there.
 */
export function installVirtualTimers(clock: VirtualClock, options: VirtualTimersOptions = {}): VirtualTimers {
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = {
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    setInterval: globalThis.setInterval,
    clearInterval: globalThis.clearInterval,
    abortTimeout: Object.getOwnPropertyDescriptor(AbortSignal, 'timeout'),
    dateNow: Object.getOwnPropertyDescriptor(Date, 'now'),
    random: Object.getOwnPropertyDescriptor(Math, 'random'),
  };
  const realSetTimeout = saved.setTimeout;
  const realClearTimeout = saved.clearTimeout;

  const setTimeoutV = (fn: AnyFn, ms?: unknown, ...args: unknown[]): unknown => {
    if (typeof fn !== 'function') return realSetTimeout(fn, ms as number, ...args);
    if (isZero(ms)) {
      let release: () => void = () => {};
      void clock.hold(new Promise<void>((resolve) => (release = resolve)));
      const t = realSetTimeout(() => {
        release();
        fn(...args);
      }, 0);
      // A cleared zero-delay timer must not keep time frozen forever.
      zeroReleases.set(t, release);
      return t;
    }
    return new VirtualTimeout(clock, delayOf(ms), () => fn(...args), false);
  };
  const zeroReleases = new WeakMap<object, () => void>();
  const clearV = (t: unknown): void => {
    if (t instanceof VirtualTimeout) return t.clear();
    if (typeof t === 'object' && t !== null) zeroReleases.get(t)?.();
    realClearTimeout(t as NodeJS.Timeout);
  };
  const setIntervalV = (fn: AnyFn, ms?: unknown, ...args: unknown[]): unknown =>
    new VirtualTimeout(clock, delayOf(ms), () => fn(...args), true);

  g['setTimeout'] = setTimeoutV;
  g['clearTimeout'] = clearV;
  g['setInterval'] = setIntervalV;
  g['clearInterval'] = clearV;
  Object.defineProperty(AbortSignal, 'timeout', {
    configurable: true,
    writable: true,
    value: (ms: number): AbortSignal => {
      const controller = new AbortController();
      clock.setTimer(delayOf(ms), () =>
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      );
      return controller.signal;
    },
  });
  if (options.date ?? true) {
    Object.defineProperty(Date, 'now', { configurable: true, writable: true, value: () => clock.now() });
  }
  const random = options.random;
  if (random) Object.defineProperty(Math, 'random', { configurable: true, writable: true, value: () => random.next() });
  const restoreSockets = (options.sockets ?? true) ? virtualRequestTimeouts(clock) : () => {};

  let installed = true;
  return {
    uninstall(): void {
      if (!installed) return;
      installed = false;
      g['setTimeout'] = saved.setTimeout;
      g['clearTimeout'] = saved.clearTimeout;
      g['setInterval'] = saved.setInterval;
      g['clearInterval'] = saved.clearInterval;
      if (saved.abortTimeout) Object.defineProperty(AbortSignal, 'timeout', saved.abortTimeout);
      if (saved.dateNow) Object.defineProperty(Date, 'now', saved.dateNow);
      if (saved.random) Object.defineProperty(Math, 'random', saved.random);
      restoreSockets();
    },
  };
}

const kTimer = Symbol('faultline.requestTimeout');
type TimedRequest = http.ClientRequest & { [kTimer]?: TimerHandle };

/**
 * `ClientRequest#setTimeout` arms the socket's own timer once the socket connects; an
 * intercepted socket that is never answered never connects, so the timeout would never
 * fire. On the clock, it runs from the call until the request closes.
 */
function virtualRequestTimeouts(clock: VirtualClock): () => void {
  const proto = realClientRequestPrototype();
  const original = Object.getOwnPropertyDescriptor(proto, 'setTimeout');
  if (!original) return () => {};
  Object.defineProperty(proto, 'setTimeout', {
    configurable: true,
    writable: true,
    value: function setTimeout(this: TimedRequest, msecs: number, callback?: () => void): TimedRequest {
      if (callback) this.once('timeout', callback);
      const previous = this[kTimer];
      if (previous !== undefined) clock.clearTimer(previous);
      delete this[kTimer];
      if (msecs > 0) {
        const handle = clock.setTimer(msecs, () => {
          delete this[kTimer];
          if (!this.destroyed) this.emit('timeout');
        });
        this[kTimer] = handle;
        this.once('close', () => clock.clearTimer(handle));
      }
      return this;
    },
  });
  return () => Object.defineProperty(proto, 'setTimeout', original);
}

/** nock and msw replace `http.ClientRequest`; the prototype that defines `setTimeout` is Node's own. */
function realClientRequestPrototype(): object {
  let proto: object | null = http.ClientRequest.prototype as object;
  while (proto && !Object.hasOwn(proto, 'setTimeout')) proto = Object.getPrototypeOf(proto) as object | null;
  return proto ?? (http.ClientRequest.prototype as object);
}

/**
 * Runs `body` on `clock` with virtual global timers installed, and restores them however it ends.
 *
 * @example
 * const run = await runWithVirtualTimers(clock, () => fetch(url, { signal: AbortSignal.timeout(30_000) }));
 */
export async function runWithVirtualTimers<T>(
  clock: VirtualClock,
  body: () => Promise<T>,
  options: VirtualTimersOptions & { readonly maxVirtualMs?: number } = {},
): Promise<ClockRun<T>> {
  const timers = installVirtualTimers(clock, options);
  try {
    return await clock.run(body, options.maxVirtualMs === undefined ? {} : { maxVirtualMs: options.maxVirtualMs });
  } finally {
    timers.uninstall();
  }
}
