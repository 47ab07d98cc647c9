import type { Clock } from '../../core/index.js';

/** The whole task's deadline (R8, R9), on the trial's clock. */
export class Deadline {
  /** Epoch milliseconds at which the task must be done; `Infinity` for none. */
  readonly atMs: number;

  constructor(
    private readonly clock: Clock,
    startMs: number,
    deadlineMs: number | null,
  ) {
    this.atMs = deadlineMs === null ? Infinity : startMs + deadlineMs;
  }

  remainingMs(): number {
    return Math.max(0, this.atMs - this.clock.now());
  }

  expired(): boolean {
    return this.clock.now() >= this.atMs;
  }

  /** The per-call timeout, cut short by the deadline; `undefined` for none. */
  attemptTimeoutMs(perCallTimeoutMs: number | null | undefined): number | undefined {
    const ms = Math.min(perCallTimeoutMs ?? Infinity, this.remainingMs());
    return Number.isFinite(ms) ? ms : undefined;
  }

  /** Whether a wait of `ms` would still leave time for another attempt. */
  allowsWait(ms: number): boolean {
    return this.clock.now() + ms < this.atMs;
  }
}
