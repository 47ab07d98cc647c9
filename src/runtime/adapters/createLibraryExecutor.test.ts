import { describe, expect, it } from 'vitest';
import {
  History,
  HttpError,
  IdSource,
  Rng,
  VirtualClock,
  canonicalJson,
  eventsOf,
  type WireRequest,
} from '../../core/index.js';
import { installVirtualTimers } from '../../core/clock/globalTimers.js';
import { ALL_TOOLS, FakeTransport } from '../fakeTransport.testkit.js';
import { createLibraryExecutor, LibraryConfigSchema } from './createLibraryExecutor.js';

/** Runs one call through the library on a virtual clock with seeded Math.random; returns when attempts left and the history. */
async function run(config: unknown, reply: (r: WireRequest) => unknown, seed = 1) {
  const clock = new VirtualClock(0);
  const history = new History(clock);
  const transport = new FakeTransport(ALL_TOOLS, reply);
  const executor = await createLibraryExecutor(LibraryConfigSchema.parse(config), {
    transport,
    clock,
    rng: new Rng(seed),
    history,
    ids: new IdSource(),
  });
  const timers = installVirtualTimers(clock, { mode: 'library', random: new Rng(seed).fork('math-random') });
  try {
    const done = await clock.run(() => executor.call('set_flag', { on: true }));
    if (done.kind !== 'settled') throw new Error(done.kind);
    return {
      result: done.value,
      history: history.events,
      times: eventsOf(history.events, 'attempt').map((e) => e.t),
      sent: transport.calls(),
    };
  } finally {
    timers.uninstall();
  }
}

const down = (): never => {
  throw new HttpError(503, 'Service Unavailable');
};
const okOnThird = (r: WireRequest): unknown => {
  if (r.attempt < 3) throw new HttpError(503, 'Service Unavailable');
  return { on: true };
};

describe('cockatiel on the virtual clock', () => {
  it('waits its exponential backoff in virtual time and records every attempt', async () => {
    const r = await run(
      {
        kind: 'cockatiel',
        name: 'c',
        maxAttempts: 3,
        backoff: { kind: 'exponential', initialDelay: 100, generator: 'none' },
      },
      down,
    );
    expect(r.result.kind).toBe('error');
    expect(r.times).toEqual([0, 100, 300, 700]);
    expect(eventsOf(r.history, 'retry_wait').map((e) => e.ms)).toEqual([100, 200, 400]);
    expect(eventsOf(r.history, 'give_up').map((e) => e.reason)).toEqual(['max_attempts']);
  });

  it('succeeds once an attempt does, with one idempotency key for the call', async () => {
    const r = await run({ kind: 'cockatiel', name: 'c', backoff: { kind: 'constant', delay: 50 } }, okOnThird);
    expect(r.result).toMatchObject({ kind: 'ok', attempts: 3, value: { on: true } });
    expect(r.times).toEqual([0, 50, 100]);
    expect(new Set(r.sent.map((s) => s.idempotencyKey)).size).toBe(1);
  });

  it('same seed, same jittered history; another seed, other waits', async () => {
    const config = {
      kind: 'cockatiel',
      name: 'c',
      maxAttempts: 5,
      backoff: { kind: 'exponential', initialDelay: 100, generator: 'full' },
    };
    const a = await run(config, down, 7);
    const b = await run(config, down, 7);
    const c = await run(config, down, 8);
    expect(canonicalJson(a.history)).toBe(canonicalJson(b.history));
    expect(a.times).not.toEqual(c.times);
  });

  it('retries only the kinds retryOn lists', async () => {
    const r = await run({ kind: 'cockatiel', name: 'c', retryOn: ['rate_limit'] }, down);
    expect(r.times).toEqual([0]);
    expect(eventsOf(r.history, 'give_up').map((e) => e.reason)).toEqual(['not_retryable']);
  });

  it('its circuit breaker stops sending once open', async () => {
    const r = await run(
      {
        kind: 'cockatiel',
        name: 'c',
        maxAttempts: 5,
        backoff: { kind: 'constant', delay: 10 },
        circuitBreaker: { halfOpenAfter: 10_000, consecutiveFailures: 2 },
      },
      down,
    );
    expect(r.sent.length).toBe(2);
    expect(r.result.kind === 'error' && r.result.error.message).toMatch(/circuit/i);
  });
});

describe('p-retry on the virtual clock', () => {
  it('waits minTimeout * factor^n in virtual time', async () => {
    const r = await run({ kind: 'p-retry', name: 'p', retries: 3, minTimeout: 100, factor: 2 }, down);
    expect(r.times).toEqual([0, 100, 300, 700]);
    expect(r.result).toMatchObject({ kind: 'error', attempts: 4 });
  });

  it('same seed, same randomized history; another seed, other waits', async () => {
    const config = { kind: 'p-retry', name: 'p', retries: 4, minTimeout: 100, randomize: true };
    const a = await run(config, down, 3);
    const b = await run(config, down, 3);
    const c = await run(config, down, 4);
    expect(canonicalJson(a.history)).toBe(canonicalJson(b.history));
    expect(a.times).not.toEqual(c.times);
    // randomize multiplies each wait by 1..2: the first wait lies in [100, 200].
    expect(a.times[1]).toBeGreaterThanOrEqual(100);
    expect(a.times[1]).toBeLessThanOrEqual(200);
  });

  it('maxRetryTime reads the virtual clock', async () => {
    const r = await run(
      { kind: 'p-retry', name: 'p', retries: 10, minTimeout: 1_000, factor: 1, maxRetryTime: 2_500 },
      down,
    );
    expect(r.times).toEqual([0, 1_000, 2_000, 2_500]);
  });
});
