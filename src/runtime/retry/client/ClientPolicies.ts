import type { Clock, Rng } from '../../../core/index.js';
import type { RetryConfig } from '../../config.js';
import { AdaptiveThrottle } from './AdaptiveThrottle.js';
import { RetryQuota } from './RetryQuota.js';
import { RetryRatio } from './RetryRatio.js';

/**
 * The client-wide overload policies a configuration asks for. They keep state per client
 * process, not per call: one instance is shared by every executor of a trial, so the agents
 * of a crowd are the users of one client (as a service's many requests share its SDK client).
 */
export interface ClientPolicies {
  readonly throttle?: AdaptiveThrottle;
  readonly quota?: RetryQuota;
  readonly ratio?: RetryRatio;
}

export const NO_CLIENT_POLICIES: ClientPolicies = {};

/** The policies `config` sets; none (and no rng drawn) when it sets none. */
export function clientPoliciesFor(config: RetryConfig, clock: Clock, rng: Rng): ClientPolicies {
  const { adaptiveThrottling, retryQuota, retryRatio } = config;
  if (!adaptiveThrottling && !retryQuota && !retryRatio) return NO_CLIENT_POLICIES;
  return {
    ...(adaptiveThrottling && {
      throttle: new AdaptiveThrottle(adaptiveThrottling, clock, rng.fork('adaptive-throttling')),
    }),
    ...(retryQuota && { quota: new RetryQuota(retryQuota) }),
    ...(retryRatio && { ratio: new RetryRatio(retryRatio, clock) }),
  };
}
