import { AsyncResource } from 'node:async_hooks';
import http from 'node:http';
// Node's own timers, not whatever `globalThis` holds when a layer is installed: installed over
// another (an agent's restart over the trial's timers), a layer's zero delays went through the outer
// one's guard, which drops them once the outer code is abandoned (the restart of an agent on the
// openai SDK's streams waited for ever on its first setTimeout(0)).
import { clearTimeout as realClearTimeout, setTimeout as realSetTimeout } from 'node:timers';
import type { Clock, TimerHandle } from './Clock.js';
import { overrideProperty } from './overrideProperty.js';
import type { ClockRun, VirtualClock } from './VirtualClock.js';

/**
 * How much of the event loop stays real:
 * - `'io'` (default), for a client doing real (intercepted) I/O: a zero-delay `setTimeout` stays
 *   real (held on the clock) so interception libraries can yield a turn; `AbortSignal.timeout`
 *   and node:http socket timeouts run on the clock.
 * - `'library'`, for code that does no real I/O while installed (cockatiel, p-retry): every
 *   delay, zero too, is a clock timer, so their order is the clock's, not the event loop's;
 *   `performance.now` reads the clock too.
 */
export type VirtualTimersMode = 'io' | 'library';

export interface VirtualTimersOptions {
  /** What stays real (default `'io'`). */
  readonly mode?: VirtualTimersMode;
  /** Also answer `Date.now()` from the clock, so a client dating a `Retry-After` agrees with the server (default true). */
  readonly date?: boolean;
  /** Also run `ClientRequest#setTimeout` (node:http socket timeouts) on the clock (default true in `'io'` mode, false in `'library'`). */
  readonly sockets?: boolean;
  /**
   * Answer `Math.random()` from this source (a fork of the trial's rng), so an SDK's backoff
   * jitter replays exactly. Left alone when absent.
   */
  readonly random?: { next(): number };
  /**
   * Whether the code these timers serve still runs: once false, what they schedule never fires (an
   * abandoned agent start's timeouts must not wake it). The clock is not held for them.
   */
  readonly alive?: () => boolean;
}

/**
 * Wraps a timer's callback as it is scheduled: it runs in the async context that scheduled it, as
 * a real timer's does (the clock fires it from its own), and not at all once the code these timers
 * serve was abandoned.
 */
type Guard = (fn: AnyFn) => AnyFn;
const guardOf =
  (alive: (() => boolean) | undefined): Guard =>
  (fn) =>
    AsyncResource.bind(
      alive === undefined
        ? fn
        : (...args: unknown[]) => {
            if (alive()) fn(...args);
          },
    );

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
    private readonly clock: Clock,
    private readonly ms: number,
    private readonly fire: () => void,
    private readonly repeat: boolean,
  ) {
    this.#handle = this.#arm();
  }

  #arm(): TimerHandle {
    return this.clock.setTimer(this.ms, () => {
      // Re-armed before it fires, under the same object, so clearInterval stops the current one.
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

/** In `'library'` mode a delay is taken as given: nothing but a missing or negative one becomes 0. */
function libraryDelayOf(ms: unknown): number {
  const n = Number(ms);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

type AnyFn = (...args: unknown[]) => void;

/** The four global timer functions, as installed. */
interface TimerGlobals {
  readonly setTimeout: unknown;
  readonly clearTimeout: unknown;
  readonly setInterval: unknown;
  readonly clearInterval: unknown;
}

/** `'io'` mode: zero delays stay real but hold the clock until they fire, so virtual time cannot overtake them. */
function ioTimers(clock: VirtualClock, guard: Guard): TimerGlobals {
  // A cleared zero-delay timer must not keep time frozen forever.
  const zeroReleases = new WeakMap<object, () => void>();
  const clear = (t: unknown): void => {
    if (t instanceof VirtualTimeout) return t.clear();
    if (typeof t === 'object' && t !== null) zeroReleases.get(t)?.();
    realClearTimeout(t as NodeJS.Timeout);
  };
  return {
    setTimeout: (given: AnyFn, ms?: unknown, ...args: unknown[]): unknown => {
      if (typeof given !== 'function') return realSetTimeout(given, ms as number, ...args);
      const fn = guard(given);
      if (isZero(ms)) {
        let release: () => void = () => {};
        void clock.hold(new Promise<void>((resolve) => (release = resolve)));
        const t = realSetTimeout(() => {
          release();
          fn(...args);
        }, 0);
        zeroReleases.set(t, release);
        return t;
      }
      return new VirtualTimeout(clock, delayOf(ms), () => fn(...args), false);
    },
    clearTimeout: clear,
    setInterval: (fn: AnyFn, ms?: unknown, ...args: unknown[]): unknown =>
      new VirtualTimeout(
        clock,
        delayOf(ms),
        guard(() => fn(...args)),
        true,
      ),
    clearInterval: clear,
  };
}

/** `'library'` mode: every timer is the clock's; a handle that is not ours is left alone. */
function libraryTimers(clock: Clock, guard: Guard): TimerGlobals {
  const clear = (t: unknown): void => {
    if (t instanceof VirtualTimeout) t.clear();
  };
  return {
    setTimeout: (fn: AnyFn, ms?: unknown, ...args: unknown[]): VirtualTimeout =>
      new VirtualTimeout(
        clock,
        libraryDelayOf(ms),
        guard(() => fn(...args)),
        false,
      ),
    clearTimeout: clear,
    setInterval: (fn: AnyFn, ms?: unknown, ...args: unknown[]): VirtualTimeout =>
      new VirtualTimeout(
        clock,
        Math.max(1, libraryDelayOf(ms)),
        guard(() => fn(...args)),
        true,
      ),
    clearInterval: clear,
  };
}

/** `AbortSignal.timeout` on the clock, aborting with the same reason as Node's. */
function virtualAbortTimeout(clock: Clock, guard: Guard): (ms: number) => AbortSignal {
  return (ms) => {
    const controller = new AbortController();
    clock.setTimer(
      delayOf(ms),
      guard(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))),
    );
    return controller.signal;
  };
}

/**
 * Swaps `setTimeout`, `setInterval`, their `clear*` and `Date.now` for ones that run on
 * `clock` (and, given a source, `Math.random`), so an unmodified client's own timeout (30 s),
 * retry backoff or socket timeout costs virtual time, not wall time. In the default `'io'`
 * mode `AbortSignal.timeout` and node:http request timeouts go on the clock too, and a
 * zero-delay `setTimeout` stays real (libraries use it to yield a turn) but is held on the
 * clock until it fires; in `'library'` mode nothing stays real (see `VirtualTimersMode`).
 * Install it around the trial body only; `uninstall` restores exactly what was there.
 */
export function installVirtualTimers(clock: VirtualClock, options?: VirtualTimersOptions): VirtualTimers;
export function installVirtualTimers(
  clock: Clock,
  options: VirtualTimersOptions & { readonly mode: 'library' },
): VirtualTimers;
export function installVirtualTimers(clock: Clock, options: VirtualTimersOptions = {}): VirtualTimers {
  const io = (options.mode ?? 'io') === 'io';
  // The overloads only let a plain Clock in with mode 'library'.
  const guard = guardOf(options.alive);
  const timers = io ? ioTimers(clock as VirtualClock, guard) : libraryTimers(clock, guard);
  const restores = [
    overrideProperty(globalThis, 'setTimeout', timers.setTimeout),
    overrideProperty(globalThis, 'clearTimeout', timers.clearTimeout),
    overrideProperty(globalThis, 'setInterval', timers.setInterval),
    overrideProperty(globalThis, 'clearInterval', timers.clearInterval),
  ];
  if (io) restores.push(overrideProperty(AbortSignal, 'timeout', virtualAbortTimeout(clock, guard)));
  if (options.date ?? true) restores.push(overrideProperty(Date, 'now', () => clock.now()));
  if (!io) {
    // performance.now counts from the process start; from the install is as good for measuring durations.
    const origin = clock.now();
    restores.push(overrideProperty(performance, 'now', () => clock.now() - origin));
  }
  const random = options.random;
  if (random) restores.push(overrideProperty(Math, 'random', () => random.next()));
  if (options.sockets ?? io) restores.push(virtualRequestTimeouts(clock, guard));

  let installed = true;
  return {
    uninstall(): void {
      if (!installed) return;
      installed = false;
      for (const restore of restores) restore();
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
function virtualRequestTimeouts(clock: Clock, guard: Guard): () => void {
  const proto = realClientRequestPrototype();
  if (!Object.hasOwn(proto, 'setTimeout')) return () => {};
  return overrideProperty(
    proto,
    'setTimeout',
    function setTimeout(this: TimedRequest, msecs: number, callback?: () => void): TimedRequest {
      if (callback) this.once('timeout', callback);
      const previous = this[kTimer];
      if (previous !== undefined) clock.clearTimer(previous);
      delete this[kTimer];
      if (msecs > 0) {
        const handle = clock.setTimer(
          msecs,
          guard(() => {
            delete this[kTimer];
            if (!this.destroyed) this.emit('timeout');
          }),
        );
        this[kTimer] = handle;
        this.once('close', () => clock.clearTimer(handle));
      }
      return this;
    },
  );
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
