import { getEventListeners } from 'node:events';
import { AbortRelay } from '../core/AbortRelay.js';

/**
 * A reused abort controller, as the pool lends it: its signal, and what the pool needs to know
 * whether it can lend it again (no lookup by controller when it comes back).
 */
export class PooledSignal {
  readonly signal: AbortSignal;
  /** The signal's first listener, for its whole life: a send's race holds a hook on it instead of adding one (`AbortRelay`). */
  readonly relay: AbortRelay;
  /** A listener was added through the signal since the pool last saw it hold its relay's alone. */
  touched = false;
  readonly #controller: AbortController;

  constructor() {
    this.#controller = new AbortController();
    const signal = (this.signal = this.#controller.signal);
    this.relay = AbortRelay.attach(signal);
    // Counting listeners (`getEventListeners`) at every return cost a crowd ~2 % of its CPU; the signal says instead
    // when one is added, and only then are they counted. The method added does what the prototype's does.
    const add = signal.addEventListener;
    const lent = this;
    Object.defineProperty(signal, 'addEventListener', {
      value: function addEventListener(this: AbortSignal, ...args: Parameters<AbortSignal['addEventListener']>): void {
        lent.touched = true;
        add.apply(this, args);
      },
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }

  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }
}

/**
 * Abort controllers for sends, reused: a fresh `AbortController` costs an `EventTarget` (several
 * microseconds and garbage) per attempt, far more than the rest of a send's bookkeeping. Only a
 * controller whose signal never fired and holds no listener comes back, so a reused signal is
 * indistinguishable from a new one to a transport that let go of it (`releasesSignal`).
 */
export class SignalPool {
  /**
   * The one pool every executor of the process (of the worker) sends from: a crowd's thousand
   * agents each had a pool of its own, and made a controller for its first send in every trial.
   * A clean signal carries nothing from one send to the next, so sharing one across executors
   * and trials changes nothing a transport can see.
   */
  static readonly shared = new SignalPool();

  readonly #spare: PooledSignal[] = [];

  take(): PooledSignal {
    return this.#spare.pop() ?? new PooledSignal();
  }

  give(lent: PooledSignal): void {
    // The relay's own listener is the one a clean signal holds; a hook still held would be a listener too.
    if (lent.signal.aborted || !lent.relay.idle) return;
    if (lent.touched) {
      if (getEventListeners(lent.signal, 'abort').length !== 1) return;
      lent.touched = false;
    }
    // Spares past the most sends ever in flight at once are never taken again: past a bound, let them go.
    if (this.#spare.length < MAX_SPARE) this.#spare.push(lent);
  }
}

/** Far above the sends one process has in flight at once (a crowd of 1,000 agents), far below a memory worth noticing. */
const MAX_SPARE = 16_384;
