import { describe, expect, it } from 'vitest';
import { Rng, VirtualClock, type ErrorData } from '../../../core/index.js';
import { AdaptiveThrottlingSchema, RetryQuotaSchema, RetryRatioSchema } from '../../config.js';
import { AdaptiveThrottle } from './AdaptiveThrottle.js';
import { RetryQuota } from './RetryQuota.js';
import { RetryRatio } from './RetryRatio.js';

const unavailable: ErrorData = { kind: 'unavailable', message: '503', retryable: true, status: 503 };
const timeout: ErrorData = { kind: 'timeout', message: 'timed out', retryable: true };
const advance = (clock: VirtualClock, ms: number) => clock.run(() => clock.sleep(ms));

describe('AdaptiveThrottle: SRE book ch. 21, max(0, (requests − K·accepts) / (requests + 1))', () => {
  it('defaults to the book: K = 2 over two minutes', () => {
    expect(AdaptiveThrottlingSchema.parse({})).toEqual({ k: 2, windowMs: 120_000 });
  });

  it('counts a request sent once its answer is known: a cold client with requests in flight throttles nothing', () => {
    const t = new AdaptiveThrottle(AdaptiveThrottlingSchema.parse({}), new VirtualClock(0), new Rng(1));
    for (let i = 0; i < 20; i++) expect(t.admit()).toBe(true);
    expect(t.rejectProbability).toBe(0);
    t.record(false);
    expect(t.rejectProbability).toBeCloseTo(1 / 2, 12);
  });

  it('rejects nothing while the backend accepts at least one request in K', () => {
    const t = new AdaptiveThrottle(AdaptiveThrottlingSchema.parse({}), new VirtualClock(0), new Rng(1));
    for (let i = 0; i < 100; i++) {
      expect(t.admit()).toBe(true);
      t.record(i % 2 === 0);
    }
    // 100 requests, 50 accepts: (100 − 2·50) / 101 = 0.
    expect(t.rejectProbability).toBe(0);
  });

  it('follows the formula as accepts fall behind, local rejections counted as requests', () => {
    const t = new AdaptiveThrottle(AdaptiveThrottlingSchema.parse({}), new VirtualClock(0), new Rng(7));
    for (let i = 0; i < 10; i++) {
      t.admit();
      t.record(true);
    }
    let sent = 0;
    for (let i = 0; i < 200; i++) {
      const requests = 10 + i;
      expect(t.rejectProbability).toBeCloseTo(Math.max(0, (requests - 2 * 10) / (requests + 1)), 12);
      if (t.admit()) {
        sent++;
        t.record(false);
      }
    }
    // (210 − 20) / 211 at the end: most sends now stay home.
    expect(t.rejectProbability).toBeCloseTo(190 / 211, 12);
    expect(sent).toBeGreaterThan(10);
    expect(sent).toBeLessThan(100);
  });

  it('forgets what falls out of the trailing window', async () => {
    const clock = new VirtualClock(0);
    const t = new AdaptiveThrottle({ k: 2, windowMs: 1_000 }, clock, new Rng(1));
    for (let i = 0; i < 50; i++) if (t.admit()) t.record(false);
    expect(t.rejectProbability).toBeCloseTo(50 / 51, 12);
    await advance(clock, 1_000);
    expect(t.rejectProbability).toBe(0);
  });
});

describe("RetryQuota: the AWS SDKs' standard retry mode", () => {
  it('defaults to the SDK constants: 500 tokens, 5 a retry, 10 after a timeout, 1 back on a success without retry', () => {
    expect(RetryQuotaSchema.parse({})).toEqual({
      capacity: 500,
      retryCost: 5,
      timeoutRetryCost: 10,
      noRetryIncrement: 1,
    });
  });

  it('allows 100 retries of 5, or 50 after timeouts, from a full bucket; then none', () => {
    const q = new RetryQuota(RetryQuotaSchema.parse({}));
    let n = 0;
    while (q.hasTokens(unavailable)) {
      q.take(unavailable);
      n++;
    }
    expect([n, q.tokens]).toEqual([100, 0]);
    const t = new RetryQuota(RetryQuotaSchema.parse({}));
    let m = 0;
    while (t.hasTokens(timeout)) m += t.take(timeout) === 10 ? 1 : 0;
    expect([m, t.tokens]).toEqual([50, 0]);
  });

  it('refunds the last retry cost when a retried call succeeds, 1 token when it needed no retry, never above the capacity', () => {
    const q = new RetryQuota(RetryQuotaSchema.parse({}));
    q.take(timeout);
    const cost = q.take(unavailable);
    expect(q.tokens).toBe(485);
    q.succeeded(cost);
    expect(q.tokens).toBe(490);
    q.succeeded(undefined);
    expect(q.tokens).toBe(491);
    for (let i = 0; i < 20; i++) q.succeeded(undefined);
    expect(q.tokens).toBe(500);
  });

  it('checks before it takes: 4 tokens allow no retry of cost 5', () => {
    const q = new RetryQuota({ capacity: 9, retryCost: 5, timeoutRetryCost: 10, noRetryIncrement: 1 });
    q.take(unavailable);
    expect([q.tokens, q.hasTokens(unavailable), q.hasTokens(timeout)]).toEqual([4, false, false]);
  });
});

describe('RetryRatio: retries ≤ ratio × requests over the window, plus a minimum per second', () => {
  it('allows 10% of the requests plus the minimum', () => {
    const r = new RetryRatio(
      RetryRatioSchema.parse({ ratio: 0.1, windowMs: 10_000, minPerSecond: 0.5 }),
      new VirtualClock(0),
    );
    for (let i = 0; i < 100; i++) r.deposit();
    let retries = 0;
    while (r.allows()) {
      r.withdraw();
      retries++;
    }
    // 0.1 × 100 + 0.5 × 10 s.
    expect(retries).toBe(15);
  });

  it('lets retries back as the window slides past them', async () => {
    const clock = new VirtualClock(0);
    const r = new RetryRatio({ ratio: 0.1, windowMs: 1_000, minPerSecond: 0 }, clock);
    for (let i = 0; i < 20; i++) r.deposit();
    r.withdraw();
    r.withdraw();
    expect(r.allows()).toBe(false);
    await advance(clock, 500);
    for (let i = 0; i < 10; i++) r.deposit();
    expect(r.allows()).toBe(true);
    await advance(clock, 600);
    // The first 20 requests and both retries aged out: 10 requests allow 1 retry.
    r.withdraw();
    expect(r.allows()).toBe(false);
  });
});
