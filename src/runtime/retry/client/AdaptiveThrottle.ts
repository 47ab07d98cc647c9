import type { Clock, Rng } from '../../../core/index.js';
import type { AdaptiveThrottlingConfig } from '../../config.js';
import { SlidingCount } from './SlidingCount.js';

/**
 * Google SRE's client-side adaptive throttling ("Handling Overload", SRE book ch. 21). Over
 * a trailing window the client counts `requests` (every send it was asked for, those it then
 * rejected itself included, each counted once its fate is known) and `accepts` (those the
 * backend answered without an overload signal). A new send is rejected locally with probability
 *
 *     max(0, (requests − K × accepts) / (requests + 1))
 *
 * so a healthy backend sees every request, and one that accepts little sees about K times
 * what it accepts: the load falls with the backend's own throughput, whatever the callers do.
 */
export class AdaptiveThrottle {
  readonly #requests: SlidingCount;
  readonly #accepts: SlidingCount;

  constructor(
    readonly config: AdaptiveThrottlingConfig,
    clock: Clock,
    private readonly rng: Rng,
  ) {
    this.#requests = new SlidingCount(config.windowMs, clock);
    this.#accepts = new SlidingCount(config.windowMs, clock);
  }

  /** The probability the next send is rejected locally. */
  get rejectProbability(): number {
    const requests = this.#requests.count();
    return Math.max(0, (requests - this.config.k * this.#accepts.count()) / (requests + 1));
  }

  /** Draws whether the next request may leave; one rejected here is counted at once. */
  admit(): boolean {
    const p = this.rejectProbability;
    // No draw while nothing is rejected: a healthy run draws nothing, so no other stream moves.
    if (p <= 0 || this.rng.next() >= p) return true;
    this.#requests.add();
    return false;
  }

  /**
   * The backend's answer to a request `admit` let through: `accepted` unless it signalled
   * overload or never answered. The request is counted now, when its fate is known, so the
   * requests still in flight do not weigh as rejections (with a service time of a second, they
   * would throttle a cold client that nothing has refused).
   */
  record(accepted: boolean): void {
    this.#requests.add();
    if (accepted) this.#accepts.add();
  }
}
