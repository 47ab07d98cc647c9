import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../../core/index.js';
import { AdmissionControl } from './AdmissionControl.js';
import { CapacitySchema, type CapacityConfigInput } from './CapacityConfig.js';
import { RateLimiter } from './RateLimiter.js';

const door = (input: CapacityConfigInput, clock = new VirtualClock(0)) => new AdmissionControl(CapacitySchema.parse(input), clock);

describe('RateLimiter', () => {
  it('allows a burst, then one request per token, and says when the next token comes', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(4, 2, clock);
    expect([limiter.take(), limiter.take(), limiter.take()]).toEqual([{ kind: 'allowed' }, { kind: 'allowed' }, { kind: 'limited', retryAfterMs: 250 }]);
    await clock.run(() => clock.sleep(100));
    expect(limiter.take()).toEqual({ kind: 'limited', retryAfterMs: 150 });
    await clock.run(() => clock.sleep(150));
    expect(limiter.take()).toEqual({ kind: 'allowed' });
  });
});

describe('AdmissionControl', () => {
  it('answers 429 with Retry-After in seconds and in ms when over the rate limit', async () => {
    const d = door({ rateLimit: { perSecond: 2, burst: 1 } });
    expect((await d.enter()).kind).toBe('admitted');
    const refused = await d.enter();
    expect(refused.kind === 'refused' && [refused.reason, refused.error.status, refused.error.headers]).toEqual(['rate_limited', 429, { 'retry-after': '1', 'retry-after-ms': '500' }]);
    expect(d.stats).toEqual({ admitted: 1, rateLimited: 1, overloaded: 0, maxInFlight: 1, maxQueued: 0 });
  });

  it('queues up to queueLimit behind full slots, first come first served, and refuses the rest with 503', async () => {
    const clock = new VirtualClock(0);
    const d = door({ maxConcurrent: 1, queueLimit: 2, overloadRetryAfterMs: 2_000 }, clock);
    const order: string[] = [];
    const run = await clock.run(async () => {
      const work = async (name: string, ms: number): Promise<string> => {
        const a = await d.enter();
        if (a.kind === 'refused') return `${name}:${a.error.status}:${a.error.headers['retry-after']}`;
        await clock.sleep(ms);
        order.push(`${name}@${clock.now()} queued ${a.queuedMs}`);
        a.release();
        return `${name}:ok`;
      };
      return Promise.all([work('a', 100), work('b', 100), work('c', 100), work('d', 100)]);
    });
    expect(run).toEqual({ kind: 'settled', value: ['a:ok', 'b:ok', 'c:ok', 'd:503:2'], at: 300 });
    expect(order).toEqual(['a@100 queued 0', 'b@200 queued 100', 'c@300 queued 200']);
    expect(d.stats).toEqual({ admitted: 3, rateLimited: 0, overloaded: 1, maxInFlight: 1, maxQueued: 2 });
  });

  it('can answer overload with 429 instead', async () => {
    const d = door({ maxConcurrent: 1, overloadStatus: 429 });
    await d.enter();
    const refused = await d.enter();
    expect(refused.kind === 'refused' && refused.error).toBeInstanceOf(HttpError);
    expect(refused.kind === 'refused' && [refused.reason, refused.error.status, refused.error.headers]).toEqual(['overloaded', 429, {}]);
  });
});
