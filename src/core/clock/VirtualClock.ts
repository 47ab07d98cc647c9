import { sleepOn, type Clock, type TimerHandle } from './Clock.js';
import { takenResolve, takeResolvers } from '../takeResolvers.js';
import { workHandles, queueingTurns, waitForUntrackedWork } from './untrackedWork.js';

/** A timer set and not yet fired, or cleared and still in the heap until popped (`live` false). */
class Timer {
  /** Neither fired nor cleared. */
  live = true;
  constructor(
    readonly id: number,
    readonly at: number,
    readonly fn: () => void,
    /** Set by `setTimer`, whose handle can clear it; a sleep without a signal is set privately and nothing clears it. */
    readonly clearable: boolean,
    /** The fire (timer or turn) whose work set it: 0 for the run's body. */
    readonly cause: number,
    /** A turn's lane (an agent's index); -1 for a timer. */
    readonly lane: number,
  ) {}
}

/** How a body run on the virtual clock ended. */
export type ClockRun<T> =
  | { readonly kind: 'settled'; readonly value: T; readonly at: number }
  | { readonly kind: 'threw'; readonly error: unknown; readonly at: number }
  /** Nothing left to run and no timer pending, yet the body never settled. */
  | { readonly kind: 'hung'; readonly at: number }
  /** The next timer lies beyond the run's virtual time limit. */
  | { readonly kind: 'time_limit'; readonly at: number }
  /** Timers keep firing without time passing (`for (;;) await sleep(0)`): busy, but going nowhere. */
  | { readonly kind: 'livelock'; readonly at: number };
export type ClockRunKind = ClockRun<unknown>['kind'];

export interface ClockRunOptions {
  /** Virtual milliseconds after the start beyond which the run stops (default: unlimited). */
  readonly maxVirtualMs?: number;
  /** Timers that may fire at one virtual instant before the run counts as a livelock (default 10,000). */
  readonly maxFiresPerInstant?: number;
}

/**
 * Turns of the clock queued as one batch of `setImmediate` callbacks. Node drains the microtask
 * (and nextTick) queue after each immediate callback, so each callback still starts with the
 * trial idle, exactly as a fresh `setImmediate` per turn did; the batch only spares a promise
 * and a whole event-loop iteration (a poll of the OS) per turn. Real work is held (`hold`), and
 * a batch stops as soon as any is in flight.
 */
const TURNS_PER_BATCH = 64;

/** The key of `#clearable`'s permanent entry: no handle (a number) is ever equal to it. */
const KEEP = Symbol('keep');

/**
 * What one turn of the clock did: fired a timer, found real work in flight, found nothing to run (the body not settled,
 * no timer, nothing held), or ended the run.
 */
type Turn<T> =
  | { readonly kind: 'fired' }
  | { readonly kind: 'held' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'ended'; readonly run: ClockRun<T> };
const FIRED = { kind: 'fired' } as const;
const HELD = { kind: 'held' } as const;
const IDLE = { kind: 'idle' } as const;

/**
 * Simulated time. Sleeping costs nothing: `run` advances time to the next timer only
 * when every task of the body is idle, so a trial whose backoffs add up to ten minutes
 * finishes in microseconds, and the order of events depends on nothing but the code.
 */
export class VirtualClock implements Clock {
  #now: number;
  #seq = 0;
  /** Timers and turns fired so far: the number of the one whose work is running now (0: the run's body). */
  #fired = 0;
  /** Min-heap on (at, cause, lane, id): see `before`. */
  readonly #heap: Timer[] = [];
  /** Turns asked for with `nextTurn` and not yet taken, a min-heap on the same order: all at the current instant. */
  readonly #turnsDue: Timer[] = [];
  #inflight = 0;
  #wake: (() => void) | undefined;
  /**
   * Timers set by `setTimer` and neither fired nor cleared, by handle, beside one entry that never leaves (`KEEP`):
   * V8 shrinks a Map's table, a fresh allocation through the runtime, whenever a delete leaves it empty, and an
   * attempt's timeout is set and cleared with nothing else pending, once per attempt.
   */
  readonly #clearable = new Map<number | typeof KEEP, Timer | undefined>();
  /** Timers of sleeps without a signal not yet fired: nothing can clear them, so they need no handle to find them by. */
  #sleeping = 0;

  constructor(startMs = 0) {
    this.#now = startMs;
    this.#clearable.set(KEEP, undefined);
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    // Without a signal nothing can clear the timer: its callback is the promise's own resolve (a network leg, a backoff).
    if (signal === undefined) {
      // Its resolve taken without a closure per sleep (a backoff, a network leg).
      const promise = new Promise<void>(takeResolvers);
      const resolve = takenResolve<void>();
      let timer: Timer;
      try {
        timer = this.#timer(ms, resolve, false);
      } catch (error) {
        // Whatever `#timer` throws (NaN; a Symbol, a BigInt or a `valueOf` that throws, from a user's `wait` or
        // `ctx.clock.sleep`) rejects the promise returned, as a throw in the promise's executor did: a second reader
        // found such a delay thrown out of `sleep` itself, a hop early.
        return Promise.reject(error as Error);
      }
      push(this.#heap, timer);
      this.#sleeping++;
      return promise;
    }
    return sleepOn(this, ms, signal);
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const timer = this.#timer(ms, fn, true);
    this.#clearable.set(timer.id, timer);
    push(this.#heap, timer);
    return timer.id as TimerHandle;
  }

  #timer(ms: number, fn: () => void, clearable: boolean): Timer {
    // NaN would poison every later timestamp and make every time limit compare false.
    if (Number.isNaN(ms)) throw new RangeError('a timer delay must be a number of milliseconds, got NaN');
    return new Timer(++this.#seq, this.#now + (ms > 0 ? ms : 0), fn, clearable, this.#fired, -1);
  }

  /**
   * Resolves in a turn of its own at this instant, once every task is idle: among the turns and timers due at one
   * instant, by what scheduled them (the fire whose work asked), then by `lane` (an agent's index), then in the order
   * asked. A caller that waits here before work other callers may do at the same instant (an agent's tool call) runs
   * in an order that no microtask hop of anyone's code can change. Turns are taken while real work is in flight too:
   * that work may itself wait for one (a served agent's call), and time does not move for them; a timer due at this
   * instant that comes first in that order fires first then too.
   */
  nextTurn(lane: number): Promise<void> {
    const promise = new Promise<void>(takeResolvers);
    push(this.#turnsDue, new Timer(++this.#seq, this.#now, takenResolve<void>(), false, this.#fired, lane));
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
    return promise;
  }

  clearTimer(handle: TimerHandle): void {
    const timer = this.#clearable.get(handle);
    if (!timer) return;
    this.#clearable.delete(handle);
    timer.live = false;
    // A cleared timer stays in the heap until popped: an attempt's timeout, set to the task's far deadline and cleared
    // when the answer comes, would otherwise pile up and deepen every push and pop. (at, id) orders timers totally, so
    // rebuilding the heap from the live ones changes no firing order.
    if (this.#heap.length > 64 && this.#heap.length > 2 * this.pending) this.#compact();
  }

  #compact(): void {
    const live = this.#heap.filter((t) => t.live);
    this.#heap.length = 0;
    for (const timer of live) push(this.#heap, timer);
  }

  /**
   * Marks real asynchronous work (a database query, an intercepted HTTP exchange) as in
   * flight: `run` neither advances time nor calls the body hung while it is pending, since
   * its completion arrives from outside the microtask queue.
   */
  hold<T>(work: Promise<T>): Promise<T> {
    this.#inflight++;
    const release = (): void => {
      this.#inflight--;
      const wake = this.#wake;
      this.#wake = undefined;
      wake?.();
    };
    work.then(release, release);
    return work;
  }

  /** Real work registered with `hold` and not yet settled. */
  get inflight(): number {
    return this.#inflight;
  }

  /** Timers still waiting to fire. */
  get pending(): number {
    return this.#clearable.size - 1 + this.#sleeping;
  }

  /**
   * Runs `body` to completion on virtual time. A body that awaits something that can
   * never settle ends as `hung` instead of blocking the caller forever.
   */
  async run<T>(body: () => Promise<T>, options: ClockRunOptions = {}): Promise<ClockRun<T>> {
    const start = this.#now;
    const limit = options.maxVirtualMs === undefined ? Infinity : start + options.maxVirtualMs;
    const maxFires = options.maxFiresPerInstant ?? 10_000;
    const state: RunState<T> = { limit, maxFires, firesHere: 0, outcome: undefined };
    // Before the body starts: it may start a child process or an import before its first await.
    const handles = workHandles();
    let promise: Promise<T>;
    try {
      promise = body();
    } catch (error) {
      return { kind: 'threw', error, at: this.#now };
    }
    promise.then(
      (value) => (state.outcome = { kind: 'settled', value, at: this.#now }),
      (error: unknown) => (state.outcome = { kind: 'threw', error, at: this.#now }),
    );
    for (;;) {
      const turn = await this.#turns(state);
      if (turn.kind === 'ended') return turn.run;
      if (turn.kind === 'idle') {
        if (await this.#untrackedWorkMoved(state, handles)) continue;
        return state.outcome ?? { kind: 'hung', at: this.#now };
      }
      // Real work is under way: time stands still until some of it settles.
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /**
   * Nothing is left on the clock and nothing is held, yet the body has not settled: before calling it hung, lets real
   * work it awaits that no one holds (a file read, a dynamic import, a real immediate, a child process) finish, on the
   * real event loop, with time standing still. True when the body then did something (settled, set a timer, asked for
   * a turn, held work): the clock turns again. False when nothing moved and no such work is left: it is hung.
   * A body that does not wait on real work pays this once, at its hang, never in a trial that settles.
   */
  #untrackedWorkMoved<T>(state: RunState<T>, handles: readonly object[]): Promise<boolean> {
    const seq = this.#seq;
    return waitForUntrackedWork(
      () => state.outcome !== undefined || this.#seq !== seq || this.#inflight > 0 || this.#turnsDue.length > 0,
      handles,
    );
  }

  /** Turns of the clock, each in an immediate callback of its own (the trial idle), until one is not a timer fired. */
  #turns<T>(state: RunState<T>): Promise<Turn<T>> {
    return new Promise<Turn<T>>((resolve, reject) => {
      const queued: NodeJS.Immediate[] = [];
      let taken = 0;
      // The batch's unused turns are cancelled: a pending immediate would read as a timer the trial left running.
      const end = (): void => {
        for (let i = taken; i < queued.length; i++) clearImmediate(queued[i]);
      };
      const turn = (): void => {
        taken++;
        let next: Turn<T>;
        try {
          next = this.#turn(state);
        } catch (error) {
          // A timer's callback threw: the run rejects with it, as when it was fired from the run's own loop.
          end();
          reject(error as Error);
          return;
        }
        if (next.kind !== 'fired') {
          end();
          resolve(next);
        } else if (taken === queued.length) batch();
      };
      const batch = (): void => {
        queued.length = 0;
        taken = 0;
        // Every batch the same size, the first too: code of the user's that awaits a real immediate resumes after the
        // batch queued before it, so where batches end decides how many timers fire first (a smaller first batch of
        // 16 turned a trial the 64 called hung into a pass: test/golden/interleaving.golden.test.ts pins it).
        queueingTurns(() => {
          for (let i = 0; i < TURNS_PER_BATCH; i++) queued.push(setImmediate(turn));
        });
      };
      batch();
    });
  }

  /** One turn, with the trial idle: the run's end, real work in flight, or the next turn or timer fired. */
  #turn<T>(state: RunState<T>): Turn<T> {
    if (state.outcome) return { kind: 'ended', run: state.outcome };
    const due = this.#turnsDue[0];
    const next = this.#peekLive();
    if (due && (!next || before(due, next))) {
      pop(this.#turnsDue);
      this.#fired++;
      due.fn();
      return FIRED;
    }
    // Real work in flight holds time still, and so the timers too, except one due now that comes before a due turn: it
    // fires first, as it would with nothing in flight (holding it instead could wait forever on work that waits for the
    // turn, a served agent's call). So the order at one instant does not depend on when the real work ends.
    if (this.#inflight > 0 && !due) return HELD;
    if (!next) return IDLE;
    if (next.at > state.limit) {
      this.#now = state.limit;
      return { kind: 'ended', run: { kind: 'time_limit', at: this.#now } };
    }
    state.firesHere = next.at > this.#now ? 1 : state.firesHere + 1;
    if (state.firesHere > state.maxFires) return { kind: 'ended', run: { kind: 'livelock', at: this.#now } };
    pop(this.#heap);
    this.#now = Math.max(this.#now, next.at);
    next.live = false;
    if (next.clearable) this.#clearable.delete(next.id);
    else this.#sleeping--;
    this.#fired++;
    next.fn();
    return FIRED;
  }

  /** The earliest live timer, left in the heap: cleared ones above it are dropped. */
  #peekLive(): Timer | undefined {
    const h = this.#heap;
    while (h.length > 0 && !h[0]!.live) pop(h);
    return h[0];
  }
}

// Both sifts move a hole instead of swapping pairs: one write per level, and the moving timer written once at the end.
function push(h: Timer[], timer: Timer): void {
  let i = h.length;
  h.push(timer);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const above = h[parent]!;
    if (!before(timer, above)) break;
    h[i] = above;
    i = parent;
  }
  h[i] = timer;
}

function pop(h: Timer[]): Timer | undefined {
  const top = h[0];
  const last = h.pop();
  const n = h.length;
  if (n > 0 && last) {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const m = r < n && before(h[r]!, h[l]!) ? r : l;
      const child = h[m]!;
      if (!before(child, last)) break;
      h[i] = child;
      i = m;
    }
    h[i] = last;
  }
  return top;
}

/** What a run carries from one turn to the next. */
interface RunState<T> {
  readonly limit: number;
  readonly maxFires: number;
  /** Timers fired at the current virtual instant. */
  firesHere: number;
  outcome: ClockRun<T> | undefined;
}

/**
 * One order at one virtual instant: by what scheduled them (the fire whose work set them), then by lane (a turn's agent;
 * timers, -1, first), then in the order set. A timer set later was set by the same fire or a later one, so timers alone
 * still fire in the order they were set; the cause and the lane only order turns (`nextTurn`), which several agents ask
 * for in one fire's work, in whatever order their microtask hops happen to reach it.
 */
const before = (a: Timer, b: Timer): boolean =>
  a.at < b.at ||
  (a.at === b.at &&
    (a.cause < b.cause || (a.cause === b.cause && (a.lane < b.lane || (a.lane === b.lane && a.id < b.id)))));
