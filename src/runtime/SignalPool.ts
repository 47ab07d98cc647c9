import { getEventListeners } from 'node:events';

/**
 * Abort controllers for sends, reused: a fresh `AbortController` costs an `EventTarget` (several
 * microseconds and garbage) per attempt, far more than the rest of a send's bookkeeping. Only a
 * controller whose signal never fired and holds no listener comes back, so a reused signal is
 * indistinguishable from a new one to a transport that let go of it (`releasesSignal`).
 */
export class SignalPool {
  readonly #spare: AbortController[] = [];

  take(): AbortController {
    return this.#spare.pop() ?? new AbortController();
  }

  give(controller: AbortController): void {
    if (!controller.signal.aborted && getEventListeners(controller.signal, 'abort').length === 0) this.#spare.push(controller);
  }
}
