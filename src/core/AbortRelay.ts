/** The relay of each signal that has one (`AbortRelay.of`). */
const relays = new WeakMap<AbortSignal, AbortRelay>();

/**
 * One abort listener on a signal for its whole life, passing the abort on to whichever hooks are
 * held at the time. A reused send signal (`SignalPool`) gets one at birth, so the wire's race
 * against it (`raceAbort`) holds and releases a hook, a field write, instead of adding and
 * removing an `EventTarget` listener (option parsing, a node per listener, and
 * `getEventListeners` to check it went) on every send; the answer's network leg, slept while
 * the race waits, holds the second (`sleepRelayed`).
 *
 * Order is kept: the relay is the signal's first listener, and its hooks are called at the point
 * of the dispatch where the listeners they stand for would have been: the first a send adds,
 * then the one it adds next while the first is still held (nothing else listens to a send's
 * reused signal: the send owns it, `releasesSignal`).
 */
export class AbortRelay {
  #hook: (() => void) | undefined;
  #next: (() => void) | undefined;

  /** Gives `signal` a relay of its own: call it before any other listener is added. */
  static attach(signal: AbortSignal): AbortRelay {
    return new AbortRelay(signal);
  }

  private constructor(signal: AbortSignal) {
    signal.addEventListener('abort', () => {
      const hook = this.#hook;
      const next = this.#next;
      this.#hook = undefined;
      this.#next = undefined;
      hook?.();
      next?.();
    });
    relays.set(signal, this);
  }

  /** The relay of `signal`, if it was given one. */
  static of(signal: AbortSignal): AbortRelay | undefined {
    return relays.get(signal);
  }

  /** No hook held: the relay stands for no listener. */
  get idle(): boolean {
    return this.#hook === undefined && this.#next === undefined;
  }

  /** Calls `hook` once if the signal aborts before `release`. One hook at a time: check `idle` first. */
  hold(hook: () => void): void {
    this.#hook = hook;
  }

  release(): void {
    this.#hook = undefined;
  }

  /** The first hook is held and the second is free: `holdNext` stands for the listener a send adds next. */
  get takesNext(): boolean {
    return this.#hook !== undefined && this.#next === undefined;
  }

  /** Calls `hook` once, right after the first hook, if the signal aborts before `releaseNext`. Check `takesNext` first. */
  holdNext(hook: () => void): void {
    this.#next = hook;
  }

  releaseNext(): void {
    this.#next = undefined;
  }
}
