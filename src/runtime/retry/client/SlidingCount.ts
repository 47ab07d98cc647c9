import type { Clock } from '../../../core/index.js';

/** Events in the trailing `windowMs` of virtual time: a queue of times, dropped as they age out. */
export class SlidingCount {
  readonly #times: number[] = [];
  #head = 0;

  constructor(
    readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  add(): void {
    this.#times.push(this.clock.now());
  }

  count(): number {
    const since = this.clock.now() - this.windowMs;
    while (this.#head < this.#times.length && this.#times[this.#head]! <= since) this.#head++;
    // Compact now and then, so a long trial's queue does not keep every event it ever saw.
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times.splice(0, this.#head);
      this.#head = 0;
    }
    return this.#times.length - this.#head;
  }
}
