import { describe, expect, it } from 'vitest';
import { History, HttpError, IdSource, Rng, VirtualClock, eventsOf, type WireRequest } from '../../core/index.js';
import { RetryConfigSchema, rulebookDefault, type RetryConfigInput } from '../config.js';
import { Executor } from '../Executor.js';
import { ALL_TOOLS, FakeTransport } from '../fakeTransport.testkit.js';
import { kindMayRetry } from './decideRetry.js';

function setup(config: Partial<RetryConfigInput>, reply: (r: WireRequest) => unknown) {
  const clock = new VirtualClock(0);
  const history = new History(clock);
  const transport = new FakeTransport(ALL_TOOLS, reply);
  const executor = new Executor({
    transport,
    config: RetryConfigSchema.parse({ name: 'x', backoff: { kind: 'fixed', delayMs: 100 }, ...config }),
    clock,
    rng: new Rng(1),
    history,
    ids: new IdSource(),
    startMs: 0,
  });
  return { clock, history, transport, executor };
}

const down = (): never => {
  throw new HttpError(503, 'Service Unavailable');
};

describe('RetryConfig extensions', () => {
  it('leave every existing default as it was', () => {
    expect([rulebookDefault.retryConflicts, rulebookDefault.retryTokens, rulebookDefault.circuitBreaker]).toEqual([
      false,
      null,
      null,
    ]);
    expect(kindMayRetry(rulebookDefault, 'conflict')).toBe(false);
    expect(kindMayRetry(RetryConfigSchema.parse({ name: 'c', retryConflicts: true }), 'conflict')).toBe(true);
  });

  it('retryConflicts retries a 409 until the write goes through', async () => {
    const { clock, executor, transport } = setup({ retryConflicts: true, maxAttempts: 5 }, (r) => {
      if (r.attempt < 3) throw new HttpError(409, 'version conflict');
      return { ok: true };
    });
    const run = await clock.run(() => executor.call('set_flag', { on: true }));
    expect(run.kind === 'settled' && run.value.kind).toBe('ok');
    expect(transport.calls().length).toBe(3);
  });

  it('a circuit breaker stops sending after the threshold: the refused attempts never reach the transport', async () => {
    const { clock, executor, transport, history } = setup(
      { maxAttempts: 6, retryBudget: null, circuitBreaker: { failureThreshold: 2, openMs: 10_000 } },
      down,
    );
    const run = await clock.run(() => executor.call('search', { q: 'a' }));
    expect(run.kind === 'settled' && run.value.kind).toBe('error');
    expect(eventsOf(history.events, 'attempt').length).toBe(6);
    expect(transport.calls().length).toBe(2);
    const codes = eventsOf(history.events, 'attempt_end').map((e) => e.error?.code ?? e.error?.status);
    expect(codes).toEqual([503, 503, 'ECIRCUITOPEN', 'ECIRCUITOPEN', 'ECIRCUITOPEN', 'ECIRCUITOPEN']);
  });

  it('a token-bucket budget caps retries across calls and refills with time', async () => {
    const { clock, executor, transport } = setup(
      { maxAttempts: 4, retryBudget: null, retryTokens: { capacity: 2, refillPerSecond: 1 } },
      down,
    );
    await clock.run(async () => {
      await executor.call('search', { q: 'a' }); // 1 + 2 retries: the bucket is empty
      await executor.call('search', { q: 'b' }); // 0.2 s later: no token yet
      await clock.sleep(1_000);
      await executor.call('search', { q: 'c' }); // one token back
    });
    expect(transport.calls().map((r) => (r.input as { q: string }).q)).toEqual(['a', 'a', 'a', 'b', 'c', 'c']);
  });

  it('the AWS retry quota stops retries once spent, and a success puts tokens back', async () => {
    let healthy = false;
    const { clock, executor, transport, history } = setup(
      {
        maxAttempts: 10,
        retryBudget: null,
        retryQuota: { capacity: 12, retryCost: 5, timeoutRetryCost: 10, noRetryIncrement: 1 },
      },
      () => {
        if (!healthy) throw new HttpError(503, 'Service Unavailable');
        return { ok: true };
      },
    );
    await clock.run(async () => {
      await executor.call('search', { q: 'a' }); // 1 + 2 retries (12 → 2 tokens), then client_budget
      healthy = true;
      for (const q of ['b', 'c', 'd']) await executor.call('search', { q }); // +1 each: 5 tokens
      healthy = false;
      await executor.call('search', { q: 'e' }); // one retry of 5
    });
    expect(transport.calls().map((r) => (r.input as { q: string }).q)).toEqual([
      'a',
      'a',
      'a',
      'b',
      'c',
      'd',
      'e',
      'e',
    ]);
    expect(eventsOf(history.events, 'give_up').map((e) => e.reason)).toEqual(['client_budget', 'client_budget']);
    expect(executor.policies.quota?.tokens).toBe(0);
  });

  it('a retry ratio allows retries up to the ratio of first attempts, plus the minimum', async () => {
    const { clock, executor, transport } = setup(
      {
        maxAttempts: 10,
        retryBudget: null,
        backoff: { kind: 'none' },
        retryRatio: { ratio: 0.5, windowMs: 60_000, minPerSecond: 0 },
      },
      down,
    );
    await clock.run(async () => {
      for (const q of ['a', 'b', 'c', 'd']) await executor.call('search', { q });
    });
    // After n first attempts the window allows n / 2 retries: b and d find one free, a and c none.
    expect(transport.calls().map((r) => (r.input as { q: string }).q)).toEqual(['a', 'b', 'b', 'c', 'd', 'd']);
  });

  it('adaptive throttling rejects sends locally once the service stops accepting, and a rejected call is not retried', async () => {
    const { clock, executor, transport, history } = setup(
      { maxAttempts: 1, retryBudget: null, adaptiveThrottling: { k: 2, windowMs: 60_000 } },
      down,
    );
    await clock.run(async () => {
      for (let i = 0; i < 200; i++) await executor.call('search', { q: String(i) });
    });
    const sent = transport.calls().length;
    // Once p = (requests − 0) / (requests + 1) is near 1, almost nothing leaves.
    expect(sent).toBeGreaterThan(2);
    expect(sent).toBeLessThan(40);
    const reasons = eventsOf(history.events, 'give_up').map((e) => e.reason);
    expect(reasons.filter((r) => r === 'client_throttled').length).toBe(200 - sent);
    expect(eventsOf(history.events, 'attempt_end').find((e) => e.error?.code === 'ETHROTTLED')?.error?.kind).toBe(
      'unavailable',
    );
  });
});
