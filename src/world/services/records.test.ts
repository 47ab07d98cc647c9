import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../../core/index.js';
import { createWorld } from '../createWorld.js';
import { deliver } from '../deliver.js';

const update = (agent: number) => ({ record: 'rec-0', writer: `a${agent}`, value: agent });

describe('records (optimistic concurrency)', () => {
  it('commits the first of two overlapping writes and answers the other 409 without changing anything', async () => {
    const clock = new VirtualClock(0);
    const world = createWorld(clock, { records: { transactionMs: 10 } }, ['records']);
    const send = (agent: number, delay: number) =>
      clock
        .sleep(delay)
        .then(() => deliver(world, 'update_record', update(agent), { request: `r${agent}` }).catch((e: unknown) => e));
    const run = await clock.run(() => Promise.all([send(0, 0), send(1, 5), send(2, 11)]));
    if (run.kind !== 'settled') throw new Error(run.kind);
    const [a, b, c] = run.value;
    expect(a).toEqual({ record: 'rec-0', version: 1 });
    expect(b).toBeInstanceOf(HttpError);
    expect((b as HttpError).status).toBe(409);
    expect((b as HttpError).message).toBe('version conflict: rec-0 is at version 1, this write read version 0');
    expect(b).toMatchObject({
      name: 'ServiceError',
      code: 'version_conflict',
      type: 'conflict',
      body: { error: { type: 'conflict', code: 'version_conflict' } },
    });
    // Built without a stack, and the limit put back.
    expect((b as Error).stack).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBeGreaterThan(0);
    // Read at t=11, after the first commit: no conflict.
    expect(c).toEqual({ record: 'rec-0', version: 2 });
    expect(world.ledger.effects.map((e) => e.key)).toEqual(['a0', 'a2']);
    expect(world.snapshot().services['records']).toEqual({
      records: { 'rec-0': { version: 2, value: 2 } },
      commits: 2,
      conflicts: 1,
    });
  });

  it('is not in the default world, and refuses options it does not know', () => {
    expect(createWorld(new VirtualClock(0)).services.map((s) => s.name)).toEqual([
      'orders',
      'payments',
      'email',
      'calendar',
      'deploy',
    ]);
    expect(() => createWorld(new VirtualClock(0), { records: { transactionMillis: 1 } }, ['records'])).toThrow(
      /world\.records\.transactionMillis: unknown option/,
    );
  });
});

describe('jobs, with capacity', () => {
  it('processes within capacity, refuses beyond it with 503, and still finishes work whose caller left', async () => {
    const clock = new VirtualClock(0);
    const world = createWorld(clock, { jobs: { serviceTimeMs: 50, capacity: { maxConcurrent: 1, queueLimit: 1 } } }, [
      'jobs',
    ]);
    const run = await clock.run(() =>
      Promise.all(
        [0, 1, 2].map((agent) =>
          deliver(world, 'process_job', { jobId: `j${agent}` }, { request: `r${agent}` }).then(
            () => `ok@${clock.now()}`,
            (e: HttpError) => `${e.status}@${clock.now()}`,
          ),
        ),
      ),
    );
    expect(run).toEqual({ kind: 'settled', value: ['ok@50', 'ok@100', '503@0'], at: 100 });
    expect(world.ledger.effects.map((e) => [e.key, e.at])).toEqual([
      ['j0', 50],
      ['j1', 100],
    ]);
  });

  it('answers 429 with Retry-After over its rate limit', async () => {
    const clock = new VirtualClock(0);
    const world = createWorld(
      clock,
      { jobs: { serviceTimeMs: 0, capacity: { rateLimit: { perSecond: 2, burst: 1 } } } },
      ['jobs'],
    );
    await deliver(world, 'process_job', { jobId: 'j0' }, { request: 'r0' });
    const refused = await deliver(world, 'process_job', { jobId: 'j1' }, { request: 'r1' }).catch((e: unknown) => e);
    expect(refused instanceof HttpError && [refused.status, refused.headers]).toEqual([
      429,
      { 'retry-after': '1', 'retry-after-ms': '500' },
    ]);
  });
});
