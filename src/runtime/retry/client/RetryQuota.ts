import type { ErrorData } from '../../../core/index.js';
import type { RetryQuotaConfig } from '../../config.js';

/**
 * The AWS SDKs' retry quota ("standard" retry mode; aws-sdk-js-v3 `getDefaultRetryQuota` and
 * `StandardRetryStrategy`): a bucket that starts with `capacity` tokens. A retry takes
 * `retryCost` tokens, or `timeoutRetryCost` after a timeout, and is not made when the bucket
 * has fewer; a call that succeeds puts back what its last retry took, or `noRetryIncrement`
 * when it succeeded without a retry, never above `capacity`. While the service fails, retries
 * stop once the bucket is empty; first attempts still go out.
 */
export class RetryQuota {
  #tokens: number;

  constructor(readonly config: RetryQuotaConfig) {
    this.#tokens = config.capacity;
  }

  get tokens(): number {
    return this.#tokens;
  }

  costOf(error: ErrorData): number {
    return error.kind === 'timeout' ? this.config.timeoutRetryCost : this.config.retryCost;
  }

  hasTokens(error: ErrorData): boolean {
    return this.costOf(error) <= this.#tokens;
  }

  /** Takes the retry's cost (check `hasTokens` first); returns it, to be refunded if the call succeeds. */
  take(error: ErrorData): number {
    const cost = this.costOf(error);
    this.#tokens -= cost;
    return cost;
  }

  /** A call succeeded: `lastRetryCost` is what its last retry took (`undefined`: it needed none). */
  succeeded(lastRetryCost: number | undefined): void {
    this.#tokens = Math.min(this.config.capacity, this.#tokens + (lastRetryCost ?? this.config.noRetryIncrement));
  }
}
