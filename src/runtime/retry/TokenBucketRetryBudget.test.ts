import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/index.js';
import { RetryConfigSchema } from '../config.js';
import { RetryBudget } from './RetryBudget.js';
import { retryBudgetFor } from './retryBudgetFor.js';
import { TokenBucketRetryBudget } from './TokenBucketRetryBudget.js';

describe('TokenBucketRetryBudget', () => {
  it('starts full, spends a token per retry and refills with virtual time up to its capacity', async () => {
    const clock = new VirtualClock(0);
    const b = new TokenBucketRetryBudget(null, { capacity: 2, refillPerSecond: 0.5 }, clock);
    expect([b.tryTake(), b.tryTake(), b.tryTake()]).toEqual([true, true, false]);
    await clock.run(() => clock.sleep(1_999));
    expect(b.tryTake()).toBe(false);
    await clock.run(() => clock.sleep(1));
    expect([b.tryTake(), b.tryTake()]).toEqual([true, false]);
    await clock.run(() => clock.sleep(60_000));
    expect(b.remaining).toBe(2);
    expect(b.used).toBe(3);
  });

  it('also keeps the plain count: the stricter of the two wins', () => {
    const b = new TokenBucketRetryBudget(1, { capacity: 5, refillPerSecond: 0 }, new VirtualClock(0));
    expect([b.tryTake(), b.tryTake()]).toEqual([true, false]);
    expect(b.remaining).toBe(0);
  });
});

describe('retryBudgetFor', () => {
  it('gives the plain budget unless the configuration asks for tokens', () => {
    const clock = new VirtualClock(0);
    const plain = retryBudgetFor(RetryConfigSchema.parse({ name: 'p', retryBudget: 3 }), clock);
    expect(plain).toBeInstanceOf(RetryBudget);
    expect(plain).not.toBeInstanceOf(TokenBucketRetryBudget);
    expect(plain.remaining).toBe(3);
    const tokens = retryBudgetFor(
      RetryConfigSchema.parse({ name: 't', retryBudget: null, retryTokens: { capacity: 4, refillPerSecond: 1 } }),
      clock,
    );
    expect(tokens).toBeInstanceOf(TokenBucketRetryBudget);
    expect(tokens.remaining).toBe(4);
  });
});
