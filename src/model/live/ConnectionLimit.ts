/**
 * At most `limit` holders at once; the rest wait in arrival order. The live gateway takes one per
 * model request it sends, so a run's requests in flight never pass `--max-connections`.
 */
export class ConnectionLimit {
  #held = 0;
  #most = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`a connection limit is a whole number, 1 or more; got ${limit}`);
  }

  /** Holders now. */
  get held(): number {
    return this.#held;
  }

  /** The most holders there ever were at once. */
  get most(): number {
    return this.#most;
  }

  /** Resolves once a connection is free; call the function it gives back to free it again. */
  async acquire(): Promise<() => void> {
    if (this.#held >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#held++;
    this.#most = Math.max(this.#most, this.#held);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const next = this.#waiting.shift();
      // The connection passes straight to the next in line: `held` stays as it is.
      if (next) next();
      else this.#held--;
    };
  }
}
