/** The relay of each signal that has one (`AbortRelay.of`). */
const relays = new WeakMap<AbortSignal, AbortRelay>();

/**
 * One abort listener on a signal for its whole life, passing the abort on to whichever hook is
 * held at the time. A reused send signal (`SignalPool`) gets one at birth, so the wire's race
 * against it (`raceAbort`) holds and releases a hook, a field write, instead of adding and
 * removing an `EventTarget` listener (option parsing, a node per listener, and
 * `getEventListeners` to check it went) on every send.
 *
 * Order is kept: the relay is the signal's first listener, and its hook is called at the point of
 * the dispatch where the listener the hook stands for would have been (the first a send adds).
 */
export class AbortRelay {
  #hook: (() => void) | undefined;

  /** Gives `signal` a relay of its own: call it before any other listener is added. */
  static attach(signal: AbortSignal): AbortRelay {
    return new AbortRelay(signal);
  }

  private constructor(signal: AbortSignal) {
    signal.addEventListener('abort', () => {
      const hook = this.#hook;
      this.#hook = undefined;
      hook?.();
    });
    relays.set(signal, this);
  }

  /** The relay of `signal`, if it was given one. */
  static of(signal: AbortSignal): AbortRelay | undefined {
    return relays.get(signal);
  }

  /** No hook held: the relay stands for no listener. */
  get idle(): boolean {
    return this.#hook === undefined;
  }

  /** Calls `hook` once if the signal aborts before `release`. One hook at a time: check `idle` first. */
  hold(hook: () => void): void {
    this.#hook = hook;
  }

  release(): void {
    this.#hook = undefined;
  }
}
