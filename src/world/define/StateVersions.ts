import type { Clock } from '../../core/index.js';

/**
 * The versions of one service's state that a `stale` read may ask for: a copy after each write
 * that settles, kept only while a trial's plan asks (`keep`) and only as far back as it asks,
 * so a trial without a stale rule pays nothing.
 */
export class StateVersions<S> {
  #keepMs = 0;
  /** Oldest first; the first is the state as it was before any write still in reach. */
  readonly #versions: { readonly at: number; readonly state: S }[] = [];

  constructor(private readonly clock: Clock) {}

  /** Start (or reach further back): from now on every write leaves a version. */
  keep(ms: number, current: S): void {
    if (this.#versions.length === 0)
      this.#versions.push({ at: Number.NEGATIVE_INFINITY, state: structuredClone(current) });
    this.#keepMs = Math.max(this.#keepMs, ms);
  }

  /** The state just after a write settled (committed or not: a failed write may have changed it). */
  record(current: S): void {
    if (this.#keepMs === 0) return;
    const now = this.clock.now();
    this.#versions.push({ at: now, state: structuredClone(current) });
    // A read can look back at most `keepMs`: every version before the one in force then is out of reach.
    const horizon = now - this.#keepMs;
    while (this.#versions.length > 1 && this.#versions[1]!.at <= horizon) this.#versions.shift();
  }

  /** The state in force at virtual time `at`, or undefined when no versions are kept. */
  at(at: number): S | undefined {
    if (this.#keepMs === 0) return undefined;
    for (let i = this.#versions.length - 1; i >= 0; i--) {
      const v = this.#versions[i]!;
      if (v.at <= at) return v.state;
    }
    return this.#versions[0]?.state;
  }
}
