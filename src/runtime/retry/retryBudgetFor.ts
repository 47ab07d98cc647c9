import type { Clock } from '../../core/index.js';
import type { RetryConfig } from '../config.js';
import { RetryBudget } from './RetryBudget.js';
import { TokenBucketRetryBudget } from './TokenBucketRetryBudget.js';

/** The budget a configuration asks for: the plain count, with a token bucket when `retryTokens` is set. */
export function retryBudgetFor(config: RetryConfig, clock: Clock): RetryBudget {
  return config.retryTokens === null
    ? new RetryBudget(config.retryBudget)
    : new TokenBucketRetryBudget(config.retryBudget, config.retryTokens, clock);
}
