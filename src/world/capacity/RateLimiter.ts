import type { Clock } from '../../core/index.js';

/** What the limiter says about one request. */
export type RateDecision = { readonly kind: 'allowed' } | { readonly kind: 'limited'; readonly retryAfterMs: number };
export type RateDecisionKind = RateDecision['kind'];

/**
 * A server-side rate limit as a token bucket on the trial's clock: `burst` requests at once,
 * `perSecond` on average. A refused request learns when the next token comes: its Retry-After.
 */
export class RateLimiter {
  #tokens: number;
  #at: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly clock: Clock,
  ) {
    this.#tokens = burst;
    this.#at = clock.now();
  }

  take(): RateDecision {
    const now = this.clock.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#at) / 1000) * this.perSecond);
    this.#at = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return { kind: 'allowed' };
    }
    return { kind: 'limited', retryAfterMs: Math.ceil(((1 - this.#tokens) / this.perSecond) * 1000) };
  }
}
