import { getEventListeners } from 'node:events';
import { AbortRelay } from '../core/AbortRelay.js';

/**
 * Abort controllers for sends, reused: a fresh `AbortController` costs an `EventTarget` (several
 * microseconds and garbage) per attempt, far more than the rest of a send's bookkeeping. Only a
 * controller whose signal never fired and holds no listener comes back, so a reused signal is
 * indistinguishable from a new one to a transport that let go of it (`releasesSignal`).
 */
export class SignalPool {
  readonly #spare: AbortController[] = [];

  take(): AbortController {
    const spare = this.#spare.pop();
    if (spare) return spare;
    const controller = new AbortController();
    // Its first listener, for its whole life: a send's race holds a hook on it instead of adding one (`AbortRelay`).
    AbortRelay.attach(controller.signal);
    return controller;
  }

  give(controller: AbortController): void {
    const signal = controller.signal;
    // The relay's own listener is the one a clean signal holds; a hook still held would be a listener too.
    if (!signal.aborted && AbortRelay.of(signal)?.idle === true && getEventListeners(signal, 'abort').length === 1) this.#spare.push(controller);
  }
}
