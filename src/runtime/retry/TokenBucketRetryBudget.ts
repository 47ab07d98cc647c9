import type { Clock } from '../../core/index.js';
import type { RetryTokens } from '../config.js';
import { RetryBudget } from './RetryBudget.js';

/**
 * A retry budget as a token bucket (R11), on top of the plain count of `RetryBudget`: it
 * starts full, a retry spends one token, and time refills it at `refillPerSecond`. A client
 * that keeps failing retries at the refill rate at most, whatever its `maxAttempts`, so an
 * outage does not multiply its load (gRPC's retry throttling and Finagle's budgets do the same).
 */
export class TokenBucketRetryBudget extends RetryBudget {
  #tokens: number;
  #at: number;

  constructor(
    limit: number | null,
    readonly tokens: RetryTokens,
    private readonly clock: Clock,
  ) {
    super(limit);
    this.#tokens = tokens.capacity;
    this.#at = clock.now();
  }

  override tryTake(): boolean {
    this.#refill();
    if (this.#tokens < 1) return false;
    if (!super.tryTake()) return false;
    this.#tokens -= 1;
    return true;
  }

  override get remaining(): number {
    this.#refill();
    return Math.min(super.remaining, Math.floor(this.#tokens));
  }

  #refill(): void {
    const now = this.clock.now();
    this.#tokens = Math.min(
      this.tokens.capacity,
      this.#tokens + ((now - this.#at) / 1000) * this.tokens.refillPerSecond,
    );
    this.#at = now;
  }
}
