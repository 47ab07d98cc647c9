import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, Rng, VirtualClock, type ErrorData } from '../../core/index.js';
import { RetryConfigSchema, rulebookDefault } from '../config.js';
import { decideRetry, kindMayRetry } from './decideRetry.js';
import { Deadline } from './Deadline.js';
import { RetryBudget } from './RetryBudget.js';

const clock = new VirtualClock(0);
const fixed10 = RetryConfigSchema.parse({ name: 't', backoff: { kind: 'fixed', delayMs: 10 } });
const ctx = (error: ErrorData, budget = new RetryBudget(5), clientRetries = 0, config = fixed10) => ({
  config,
  error,
  attempts: 1,
  risk: 'read' as const,
  honouredKey: false,
  previousDelayMs: 0,
  clientRetries,
  deadline: new Deadline(clock, 0, 60_000),
  budget,
  rng: new Rng(1),
});

describe('kindMayRetry', () => {
  it('retries only transient kinds by default, every permanent one under retryPermanent', () => {
    expect(ERROR_KINDS.filter((k) => kindMayRetry(rulebookDefault, k))).toEqual([
      'timeout',
      'network',
      'rate_limit',
      'unavailable',
    ]);
    const unsafe = RetryConfigSchema.parse({ name: 'u', retryPermanent: true, retryOn: ['timeout'] });
    // Every kind but the transient ones retryOn leaves out, and unknown (an unknown outcome is never resent).
    const notRetried: readonly string[] = ['network', 'rate_limit', 'unavailable', 'unknown'];
    expect(ERROR_KINDS.filter((k) => kindMayRetry(unsafe, k))).toEqual(
      ERROR_KINDS.filter((k) => !notRetried.includes(k)),
    );
  });

  it('refuses quota even when retryOn lists it', () => {
    expect(kindMayRetry(RetryConfigSchema.parse({ name: 'q', retryOn: ['quota_exceeded'] }), 'quota_exceeded')).toBe(
      false,
    );
  });
});

describe('decideRetry', () => {
  it('charges the budget only for a retry that happens', () => {
    const budget = new RetryBudget(1);
    expect(decideRetry(ctx({ kind: 'invalid_argument', message: 'x', retryable: false }, budget))).toEqual({
      kind: 'stop',
      reason: 'not_retryable',
    });
    expect(budget.remaining).toBe(1);
    expect(decideRetry(ctx({ kind: 'network', message: 'x', retryable: true }, budget))).toEqual({
      kind: 'retry',
      delayMs: 10,
      reason: 'backoff',
    });
    expect(decideRetry(ctx({ kind: 'network', message: 'x', retryable: true }, budget))).toEqual({
      kind: 'stop',
      reason: 'budget',
    });
  });

  it('waits the longer of the backoff and the hint', () => {
    expect(decideRetry(ctx({ kind: 'rate_limit', message: 'x', retryable: true, retryAfterMs: 5 }))).toEqual({
      kind: 'retry',
      delayMs: 10,
      reason: 'backoff',
    });
    expect(decideRetry(ctx({ kind: 'rate_limit', message: 'x', retryable: true, retryAfterMs: 500 }))).toEqual({
      kind: 'retry',
      delayMs: 500,
      reason: 'retry_after',
    });
  });

  it("leaves to the tool's client what it already retries, and only that (R10)", () => {
    const sdk = (error: ErrorData, config = fixed10) => decideRetry(ctx(error, new RetryBudget(5), 2, config));
    expect(sdk({ kind: 'unavailable', message: 'x', retryable: true, status: 503 })).toEqual({
      kind: 'stop',
      reason: 'retried_by_client',
    });
    expect(sdk({ kind: 'rate_limit', message: 'x', retryable: true, status: 429 })).toEqual({
      kind: 'stop',
      reason: 'retried_by_client',
    });
    expect(sdk({ kind: 'network', message: 'x', retryable: true, code: 'ECONNRESET' })).toEqual({
      kind: 'stop',
      reason: 'retried_by_client',
    });
    const layered = RetryConfigSchema.parse({
      name: 'layered',
      singleLayer: false,
      backoff: { kind: 'fixed', delayMs: 10 },
    });
    expect(sdk({ kind: 'unavailable', message: 'x', retryable: true, status: 503 }, layered)).toEqual({
      kind: 'retry',
      delayMs: 10,
      reason: 'backoff',
    });
  });
});
