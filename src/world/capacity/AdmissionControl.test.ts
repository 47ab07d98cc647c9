import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../../core/index.js';
import { AdmissionControl } from './AdmissionControl.js';
import { CapacitySchema, type CapacityConfigInput } from './CapacityConfig.js';
import { RateLimiter } from './RateLimiter.js';

const door = (input: CapacityConfigInput, clock = new VirtualClock(0)) =>
  new AdmissionControl(CapacitySchema.parse(input), clock);

describe('RateLimiter', () => {
  it('allows a burst, then one request per token, and says when the next token comes', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(4, 2, clock);
    expect([limiter.take(), limiter.take(), limiter.take()]).toEqual([
      { kind: 'allowed' },
      { kind: 'allowed' },
      { kind: 'limited', retryAfterMs: 250 },
    ]);
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
    expect(refused.kind === 'refused' && [refused.reason, refused.error.status, refused.error.headers]).toEqual([
      'rate_limited',
      429,
      { 'retry-after': '1', 'retry-after-ms': '500' },
    ]);
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
    expect(refused.kind === 'refused' && [refused.reason, refused.error.status, refused.error.headers]).toEqual([
      'overloaded',
      429,
      {},
    ]);
  });
});

describe('AdmissionControl with a capacity drop', () => {
  it('has fewer slots during the window, keeps running requests, and moves the queue when the window ends', async () => {
    const clock = new VirtualClock(1_000);
    const d = door({ maxConcurrent: 2, queueLimit: 10, drops: [{ fromMs: 100, toMs: 500, maxConcurrent: 0 }] }, clock);
    const log: string[] = [];
    const work = async (name: string, at: number, ms: number): Promise<void> => {
      await clock.sleep(at);
      const a = await d.enter();
      if (a.kind === 'refused') return void log.push(`${name} refused`);
      log.push(`${name} in@${clock.now() - 1_000}`);
      await clock.sleep(ms);
      a.release();
    };
    await clock.run(() =>
      Promise.all([work('a', 50, 200), work('b', 150, 100), work('c', 200, 100), work('d', 600, 100)]),
    );
    // a keeps its slot through the drop; b and c wait for the window's end, not for a release.
    expect(log).toEqual(['a in@50', 'b in@500', 'c in@500', 'd in@600']);
  });

  it('refuses beyond the queue during the window, and admits at full capacity after it', async () => {
    const clock = new VirtualClock(0);
    const d = door({ maxConcurrent: 3, drops: [{ fromMs: 0, toMs: 100, maxConcurrent: 1 }] }, clock);
    const kinds = async (): Promise<string[]> =>
      Promise.all([d.enter(), d.enter(), d.enter()]).then((all) => all.map((a) => a.kind));
    expect(await clock.run(kinds)).toMatchObject({ value: ['admitted', 'refused', 'refused'] });
    await clock.run(() => clock.sleep(100));
    // The one admitted request still holds its slot: 2 of 3 are free.
    expect(await clock.run(kinds)).toMatchObject({ value: ['admitted', 'admitted', 'refused'] });
  });

  it('refuses drops out of order, overlapping or ending before they start', () => {
    const issues = (drops: unknown): string[] => {
      const r = CapacitySchema.safeParse({ maxConcurrent: 2, drops });
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issues([{ fromMs: 100, toMs: 100, maxConcurrent: 1 }])).toEqual([
      'drops.0.toMs: expected toMs after fromMs',
    ]);
    expect(
      issues([
        { fromMs: 0, toMs: 200, maxConcurrent: 1 },
        { fromMs: 100, toMs: 300, maxConcurrent: 1 },
      ])[0],
    ).toMatch(/^drops\.1\.fromMs: expected drops in time order, not overlapping/);
    expect(issues([{ fromMs: 0, toMs: 200, maxConcurrent: -1 }])[0]).toMatch(/^drops\.0\.maxConcurrent: /);
    expect(
      issues([
        { fromMs: 0, toMs: 200, maxConcurrent: 1 },
        { fromMs: 200, toMs: 300, maxConcurrent: 0 },
      ]),
    ).toEqual([]);
  });
});
