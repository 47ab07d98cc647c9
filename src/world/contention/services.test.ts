import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../../core/index.js';
import { deliver } from '../deliver.js';
import { World } from '../World.js';
import { createContentionService, ContentionServiceSchema } from './ContentionServiceConfig.js';

function worldWith(config: unknown) {
  const clock = new VirtualClock(0);
  const service = createContentionService(ContentionServiceSchema.parse(config), clock);
  const world = new World(clock).add(service);
  return { clock, service, world };
}

describe('optimisticService', () => {
  it('commits the first of two overlapping writes and answers the other 409 without changing anything', async () => {
    const { clock, service, world } = worldWith({ kind: 'optimistic', transactionMs: 10 });
    const send = (agent: number, delay: number) => clock.sleep(delay).then(() => deliver(world, service.tool, service.inputFor(agent, 0), { request: `r${agent}` }).catch((e: unknown) => e));
    const run = await clock.run(() => Promise.all([send(0, 0), send(1, 5), send(2, 11)]));
    if (run.kind !== 'settled') throw new Error(run.kind);
    const [a, b, c] = run.value;
    expect(a).toEqual({ record: 'rec-0', version: 1 });
    expect(b).toBeInstanceOf(HttpError);
    expect((b as HttpError).status).toBe(409);
    expect((b as HttpError).message).toBe('version conflict: rec-0 is at version 1, this write read version 0');
    // Read at t=11, after the first commit: no conflict.
    expect(c).toEqual({ record: 'rec-0', version: 2 });
    expect(world.ledger.effects.map((e) => e.key)).toEqual(['a0-op0', 'a2-op0']);
    expect(service.snapshot()).toMatchObject({ versions: { 'rec-0': 2 }, commits: 2, conflicts: 1 });
  });

  it('spreads clients over records', () => {
    const { service } = worldWith({ kind: 'optimistic', records: 3 });
    expect([0, 1, 2, 3].map((a) => (service.inputFor(a, 1) as { record: string }).record)).toEqual(['rec-0', 'rec-1', 'rec-2', 'rec-0']);
  });
});

describe('jobsService', () => {
  it('processes within capacity, refuses beyond it, and still finishes work whose caller left', async () => {
    const { clock, service, world } = worldWith({ kind: 'jobs', serviceTimeMs: 50, capacity: { maxConcurrent: 1, queueLimit: 1 } });
    const run = await clock.run(() =>
      Promise.all([0, 1, 2].map((agent) => deliver(world, service.tool, service.inputFor(agent, 0), { request: `r${agent}` }).then(() => `ok@${clock.now()}`, (e: HttpError) => `${e.status}@${clock.now()}`))),
    );
    expect(run).toEqual({ kind: 'settled', value: ['ok@50', 'ok@100', '503@0'], at: 100 });
    expect(world.ledger.effects.map((e) => [e.key, e.at])).toEqual([['a0-op0', 50], ['a1-op0', 100]]);
    expect(service.admission).toEqual({ admitted: 2, rateLimited: 0, overloaded: 1, maxInFlight: 1, maxQueued: 1 });
  });
});
