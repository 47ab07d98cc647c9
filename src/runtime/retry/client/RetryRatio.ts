import type { Clock } from '../../../core/index.js';
import type { RetryRatioConfig } from '../../config.js';
import { SlidingCount } from './SlidingCount.js';

/**
 * A retry budget as a ratio (Finagle's `RetryBudget`, gRPC's and Envoy's retry budgets): over
 * the trailing `windowMs`, retries may be at most `ratio` of the requests (first attempts),
 * plus `minPerSecond` × the window's seconds so that a quiet client can still retry. A retry
 * is allowed while
 *
 *     retries in the window < ratio × requests in the window + minPerSecond × windowMs / 1000
 *
 * so a storm adds at most `ratio` to the load, whatever `maxAttempts` says.
 */
export class RetryRatio {
  readonly #requests: SlidingCount;
  readonly #retries: SlidingCount;

  constructor(
    readonly config: RetryRatioConfig,
    clock: Clock,
  ) {
    this.#requests = new SlidingCount(config.windowMs, clock);
    this.#retries = new SlidingCount(config.windowMs, clock);
  }

  /** A first attempt goes out. */
  deposit(): void {
    this.#requests.add();
  }

  /** Whether a retry fits the budget now. */
  allows(): boolean {
    const allowed =
      this.config.ratio * this.#requests.count() + (this.config.minPerSecond * this.config.windowMs) / 1000;
    return this.#retries.count() + 1 <= allowed;
  }

  /** A retry goes out (after `allows`). */
  withdraw(): void {
    this.#retries.add();
  }
}
