import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/index.js';
import { createWorld } from '../createWorld.js';
import { deliver, queryStatus } from '../deliver.js';
import type { DeployOptions as DeployConfig } from './deploy.js';

const start = { clientReference: 'rel-7', service: 'api', version: '1.4.2' };

function deployWorld(config: DeployConfig = {}) {
  const clock = new VirtualClock(10_000);
  return { clock, world: createWorld(clock, { deploy: config }) };
}

/** The job's state at each of the given virtual offsets from acceptance. */
async function statesAt(config: DeployConfig, offsets: readonly number[]): Promise<string[]> {
  const { clock, world } = deployWorld(config);
  const run = await clock.run(async () => {
    await deliver(world, 'start_deploy', start, { request: 'r' });
    const states: string[] = [];
    let at = 0;
    for (const offset of offsets) {
      await clock.sleep(offset - at);
      at = offset;
      states.push(
        ((await deliver(world, 'get_deploy_status', { deployId: 'dep-1' }, { request: 'q' })) as { state: string })
          .state,
      );
    }
    return states;
  });
  if (run.kind !== 'settled') throw new Error(`clock run ended ${run.kind}`);
  return run.value;
}

describe('deploy', () => {
  it('declares its tools and contract', () => {
    const { world } = deployWorld();
    expect(
      world.tools.map((t) => [t.name, t.risk, t.honoursIdempotencyKeys, t.canQueryStatus, t.businessKeyField]),
    ).toEqual([
      ['start_deploy', 'write', true, true, 'clientReference'],
      ['get_deploy_status', 'read', false, false, undefined],
      ['cancel_deploy', 'idempotent-write', true, true, 'deployId'],
    ]);
  });

  it('accepts at once with an id and commits deploy.started', async () => {
    const { world } = deployWorld();
    expect(await deliver(world, 'start_deploy', start, { request: 'req-1', idempotencyKey: 'k' })).toEqual({
      deployId: 'dep-1',
      state: 'accepted',
    });
    expect(world.ledger.effects).toEqual([
      {
        seq: 0,
        at: 10_000,
        service: 'deploy',
        effect: 'deploy.started',
        key: 'rel-7',
        request: 'req-1',
        idempotencyKey: 'k',
        data: { deployId: 'dep-1', ...start, acceptedAt: 10_000 },
      },
    ]);
    expect(await deliver(world, 'get_deploy_status', { deployId: 'dep-1' }, { request: 'q' })).toEqual({
      deployId: 'dep-1',
      ...start,
      acceptedAt: 10_000,
      state: 'accepted',
    });
    await expect(deliver(world, 'get_deploy_status', { deployId: 'dep-2' }, { request: 'q' })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('progresses accepted -> running -> succeeded over virtual time (defaults 1 s, 30 s)', async () => {
    expect(await statesAt({}, [0, 999, 1_000, 30_999, 31_000, 1_000_000])).toEqual([
      'accepted',
      'accepted',
      'running',
      'running',
      'succeeded',
      'succeeded',
    ]);
  });

  it('follows the configured timing and outcome; a stuck job runs forever', async () => {
    expect(await statesAt({ startAfterMs: 10, durationMs: 100, outcome: 'failed' }, [9, 10, 109, 110])).toEqual([
      'accepted',
      'running',
      'running',
      'failed',
    ]);
    expect(await statesAt({ outcome: 'stuck' }, [0, 1_000, 86_400_000])).toEqual(['accepted', 'running', 'running']);
  });

  it('cancels an unfinished deploy once, and refuses a finished one', async () => {
    const { clock, world } = deployWorld({ startAfterMs: 0, durationMs: 100 });
    const run = await clock.run(async () => {
      await deliver(world, 'start_deploy', start, { request: 'r1' });
      await deliver(world, 'start_deploy', { ...start, clientReference: 'rel-8' }, { request: 'r2' });
      await clock.sleep(50);
      const cancelled = await deliver(world, 'cancel_deploy', { deployId: 'dep-1' }, { request: 'r3' });
      const again = await deliver(world, 'cancel_deploy', { deployId: 'dep-1' }, { request: 'r4' });
      await clock.sleep(50);
      const late = await deliver(world, 'cancel_deploy', { deployId: 'dep-2' }, { request: 'r5' }).catch(
        (e: unknown) => e,
      );
      return { cancelled, again, late };
    });
    if (run.kind !== 'settled') throw new Error(run.kind);
    const cancelled = { deployId: 'dep-1', ...start, acceptedAt: 10_000, cancelledAt: 10_050, state: 'cancelled' };
    expect(run.value.cancelled).toEqual(cancelled);
    expect(run.value.again).toEqual(cancelled);
    expect(run.value.late).toMatchObject({
      status: 409,
      body: { error: { code: 'deploy_finished', message: 'deploy dep-2 already succeeded and cannot be cancelled' } },
    });
    expect(world.ledger.effects.map((e) => [e.effect, e.key, e.at, e.data])).toEqual([
      ['deploy.started', 'rel-7', 10_000, { deployId: 'dep-1', ...start, acceptedAt: 10_000 }],
      [
        'deploy.started',
        'rel-8',
        10_000,
        { deployId: 'dep-2', ...start, clientReference: 'rel-8', acceptedAt: 10_000 },
      ],
      ['deploy.cancelled', 'dep-1', 10_050, { deployId: 'dep-1', from: 'running' }],
    ]);
    expect(world.snapshot().services).toEqual({
      deploy: {
        'dep-1': { ...start, acceptedAt: 10_000, cancelledAt: 10_050, state: 'cancelled' },
        'dep-2': { ...start, clientReference: 'rel-8', acceptedAt: 10_000, state: 'succeeded' },
      },
    });
    expect(
      await queryStatus(world, 'cancel_deploy', { op: 'o', input: { deployId: 'dep-1' } }, { request: 's' }),
    ).toEqual({ state: 'succeeded', value: cancelled });
    expect(
      await queryStatus(world, 'cancel_deploy', { op: 'o', input: { deployId: 'dep-2' } }, { request: 's' }),
    ).toMatchObject({ state: 'failed', status: 409 });
  });

  it('answers status queries for a start by key and by client reference', async () => {
    const { world } = deployWorld();
    await deliver(world, 'start_deploy', start, { request: 'r', idempotencyKey: 'k' });
    expect(
      await queryStatus(world, 'start_deploy', { op: 'o', idempotencyKey: 'k', input: start }, { request: 's' }),
    ).toEqual({
      state: 'succeeded',
      value: { deployId: 'dep-1', state: 'accepted' },
    });
    expect(await queryStatus(world, 'start_deploy', { op: 'o', input: start }, { request: 's' })).toEqual({
      state: 'succeeded',
      value: { deployId: 'dep-1', ...start, acceptedAt: 10_000, state: 'accepted' },
    });
    expect(
      await queryStatus(world, 'start_deploy', { op: 'o', businessKey: 'rel-9', input: {} }, { request: 's' }),
    ).toEqual({ state: 'not_found' });
  });
});
