import {
  TRANSIENT_KINDS,
  type ErrorData,
  type ErrorKind,
  type GiveUpReason,
  type Risk,
  type Rng,
} from '../../core/index.js';
import type { RetryConfig } from '../config.js';
import { backoffDelay } from './backoff.js';
import type { Deadline } from './Deadline.js';
import type { RetryBudget } from './RetryBudget.js';
import type { ClientPolicies } from './client/ClientPolicies.js';

/** Whether to try again after a failed attempt, and after how long. */
export type RetryDecision =
  /** `quotaCost`: what the client's retry quota took for this retry, refunded if the call then succeeds. */
  | {
      readonly kind: 'retry';
      readonly delayMs: number;
      readonly reason: 'backoff' | 'retry_after';
      readonly quotaCost?: number;
    }
  | { readonly kind: 'stop'; readonly reason: GiveUpReason };
export type RetryDecisionKind = RetryDecision['kind'];

export interface RetryContext {
  readonly config: RetryConfig;
  readonly error: ErrorData;
  /** Attempts made so far, the failed one included. */
  readonly attempts: number;
  readonly risk: Risk;
  /** The next attempt would carry an idempotency key the server honours (R7). */
  readonly honouredKey: boolean;
  /** Retries the tool's client makes below us (`ToolContract.clientRetries`). */
  readonly clientRetries: number;
  /** The last wait, for decorrelated jitter. */
  readonly previousDelayMs: number;
  readonly deadline: Deadline;
  readonly budget: RetryBudget;
  readonly rng: Rng;
  /** The client-wide policies (shared by every caller of the client); none by default. */
  readonly client?: ClientPolicies;
  /** The failed attempt never left: the client's adaptive throttling rejected it. */
  readonly throttledLocally?: boolean;
}

/**
 * Transient kinds retry when `retryOn` lists them. Permanent kinds, quota among them (R5),
 * never retry unless `retryPermanent`; `unknown` needs both `retryPermanent` and `retryOn`.
 * A conflict also retries under `retryConflicts` (an optimistic-concurrency race lost).
 */
export function kindMayRetry(config: RetryConfig, kind: ErrorKind): boolean {
  if (TRANSIENT_KINDS.includes(kind)) return config.retryOn.includes(kind);
  if (kind === 'conflict' && config.retryConflicts) return true;
  return config.retryPermanent && (kind !== 'unknown' || config.retryOn.includes(kind));
}

function writeMayRetry(ctx: RetryContext): boolean {
  if (ctx.risk !== 'write') return true;
  switch (ctx.config.idempotency.writes) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'with-honoured-key':
      return ctx.honouredKey;
  }
}

/**
 * The retry discipline in one place (R5, R7, R9, R11). Checks run cheapest-first and the
 * shared budget is charged last, so a retry refused for another reason costs nothing.
 */
export function decideRetry(ctx: RetryContext): RetryDecision {
  const { config, error } = ctx;
  // The throttle decided from minutes of the backend's answers: drawing again at once would only defeat it.
  if (ctx.throttledLocally === true) return { kind: 'stop', reason: 'client_throttled' };
  if (!kindMayRetry(config, error.kind)) return { kind: 'stop', reason: 'not_retryable' };
  if (!writeMayRetry(ctx)) return { kind: 'stop', reason: 'write_without_key' };
  // 3 attempts here on top of an SDK's 3 make 9 deliveries; an agent's 3 on top, 27 (R10).
  if (config.singleLayer && ctx.clientRetries > 0 && clientRetriesKind(error))
    return { kind: 'stop', reason: 'retried_by_client' };
  if (ctx.attempts >= config.maxAttempts) return { kind: 'stop', reason: 'max_attempts' };

  const backoff = backoffDelay(config.backoff, ctx.attempts, ctx.previousDelayMs, ctx.rng);
  const hint = config.retryAfter.mode === 'honour' ? error.retryAfterMs : undefined;
  if (hint !== undefined && hint > config.retryAfter.maxMs)
    return { kind: 'stop', reason: 'retry_after_exceeds_deadline' };
  const useHint = hint !== undefined && hint >= backoff;
  const delayMs = useHint ? hint : backoff;
  // Sleeping through a wait that ends past the deadline only holds a slot (R9).
  if (!ctx.deadline.allowsWait(delayMs))
    return { kind: 'stop', reason: useHint ? 'retry_after_exceeds_deadline' : 'deadline' };
  const { quota, ratio } = ctx.client ?? {};
  if ((quota && !quota.hasTokens(error)) || (ratio && !ratio.allows()))
    return { kind: 'stop', reason: 'client_budget' };
  if (!ctx.budget.tryTake()) return { kind: 'stop', reason: 'budget' };
  ratio?.withdraw();
  const reason = useHint ? 'retry_after' : 'backoff';
  return quota ? { kind: 'retry', delayMs, reason, quotaCost: quota.take(error) } : { kind: 'retry', delayMs, reason };
}

/** What the official SDKs retry themselves: 408, 409, 429, 5xx and connection errors. */
function clientRetriesKind(error: ErrorData): boolean {
  if (error.status !== undefined) return [408, 409, 429].includes(error.status) || error.status >= 500;
  return error.kind === 'network' || error.kind === 'timeout';
}
