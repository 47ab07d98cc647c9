/**
 * Retries (not first attempts) left for a whole task (R11). One instance is shared by every
 * tool and every caller of a trial, so renaming a tool or spawning a sub-agent buys nothing.
 */
export class RetryBudget {
  #used = 0;

  /** `null`: no budget (every retry is allowed). */
  constructor(readonly limit: number | null) {}

  /** Takes one retry if any is left. */
  tryTake(): boolean {
    if (this.limit !== null && this.#used >= this.limit) return false;
    this.#used++;
    return true;
  }

  get remaining(): number {
    return this.limit === null ? Infinity : this.limit - this.#used;
  }

  get used(): number {
    return this.#used;
  }
}
