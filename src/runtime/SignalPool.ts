import { getEventListeners } from 'node:events';
import { AbortRelay } from '../core/AbortRelay.js';

/** How many clean controllers wait in the shared list for the next trial, at most. */
export const MAX_SPARE_SIGNALS = 256;

/**
 * The clean controllers of every pool in this thread. Each executor has a pool of its own, and
 * a trial builds a fresh executor, so a pool per executor made a new controller (an `EventTarget`
 * and its relay's listener) for every trial's first send; the spare ones now wait for the next
 * trial too. A controller is its taker's alone until given back, so trials running side by side
 * never share one.
 */
const spare: AbortController[] = [];

/**
 * Abort controllers for sends, reused: a fresh `AbortController` costs an `EventTarget` (several
 * microseconds and garbage) per attempt, far more than the rest of a send's bookkeeping. Only a
 * controller whose signal never fired and holds no listener comes back, so a reused signal is
 * indistinguishable from a new one to a transport that let go of it (`releasesSignal`).
 */
export class SignalPool {
  /**
   * This pool's own spares once the shared list is full: a crowd of a thousand agents in flight
   * at once gives back more than the shared list keeps, and each agent's executor reuses its own,
   * as every pool did before the list was shared. They go with the pool.
   */
  readonly #own: AbortController[] = [];

  take(): AbortController {
    const reused = this.#own.pop() ?? spare.pop();
    if (reused) return reused;
    const controller = new AbortController();
    // Its first listener, for its whole life: a send's race holds a hook on it instead of adding one (`AbortRelay`).
    AbortRelay.attach(controller.signal);
    return controller;
  }

  give(controller: AbortController): void {
    const signal = controller.signal;
    // The relay's own listener is the one a clean signal holds; a hook still held would be a listener too.
    if (signal.aborted || AbortRelay.of(signal)?.idle !== true || getEventListeners(signal, 'abort').length !== 1) return;
    if (spare.length < MAX_SPARE_SIGNALS) spare.push(controller);
    else this.#own.push(controller);
  }
}
