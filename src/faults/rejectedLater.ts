/** What an async function may return to reject with `error`, as `Promise.reject(error)` would make it. */
export interface RejectedLater {
  then(onFulfilled: unknown, onRejected?: (error: Error) => void): void;
}

/**
 * `Promise.reject(error)` for an async function to return: the function's promise adopts it by
 * calling `then` in one microtask and is rejected in the next, as when it adopts a rejected
 * promise, so every reaction runs at the same point of the queue. What it spares is a rejected
 * promise that no handler holds yet: Node books each one as a possible unhandled rejection and
 * books it out again when the adoption adds its handler (about a microsecond per error answer).
 */
export function rejectedLater(error: Error): RejectedLater {
  return new Refusal(error);
}

/** A class, not an object literal: the literal made its `then` method afresh (a closure) for every error answer. */
class Refusal implements RejectedLater {
  readonly #error: Error;

  constructor(error: Error) {
    this.#error = error;
  }

  then(_onFulfilled: unknown, onRejected?: (error: Error) => void): void {
    const error = this.#error;
    if (onRejected) queueMicrotask(() => onRejected(error));
  }
}
