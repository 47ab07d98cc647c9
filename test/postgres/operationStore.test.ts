import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/index.js';
import type { OperationRecord } from '../../src/runtime/idempotency/OperationRecord.js';
import { PostgresOperationStore } from '../../src/runtime/idempotency/PostgresOperationStore.js';
import { connectPool } from '../../src/public/testcontainers.js';
import { skipReason, useTestDatabase } from './postgres.js';

const rec = (op: string, extra: Partial<OperationRecord> = {}): OperationRecord => ({
  op,
  call: `call-${op}`,
  tool: 'create_order',
  input: { ref: 'r', nested: { b: 2, a: [1, null] } },
  state: 'pending',
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});

describe.skipIf(skipReason !== undefined)('PostgresOperationStore', () => {
  const database = useTestDatabase(10);

  it('behaves as the in-memory store: creates once, updates with a timestamp, finds by either key', async () => {
    const db = database();
    const s = await PostgresOperationStore.open(db.pool, { namespace: 'basic', reset: true });
    await s.create(rec('op-1', { idempotencyKey: 'idem-a', businessKey: 'ref-1' }));
    await s.create(rec('op-2', { idempotencyKey: 'idem-b', businessKey: 'ref-1' }));
    await expect(s.create(rec('op-1'))).rejects.toMatchObject({
      code: 'FAULTLINE_INTERNAL',
      message: 'operation op-1 already exists',
    });
    expect(
      await s.update('op-1', { state: 'unknown', error: { kind: 'timeout', message: 't', retryable: true } }, 50),
    ).toEqual({
      ...rec('op-1', { idempotencyKey: 'idem-a', businessKey: 'ref-1' }),
      state: 'unknown',
      error: { kind: 'timeout', message: 't', retryable: true },
      updatedAt: 50,
    });
    expect(await s.update('op-9', { state: 'failed' }, 60)).toBeUndefined();
    expect((await s.findByKey({ kind: 'idempotency', key: 'idem-a' }))?.op).toBe('op-1');
    expect((await s.findByKey({ kind: 'business', tool: 'create_order', key: 'ref-1' }))?.op).toBe('op-2');
    expect(await s.findByKey({ kind: 'business', tool: 'other', key: 'ref-1' })).toBeUndefined();
    expect((await s.list()).map((r) => r.op)).toEqual(['op-1', 'op-2']);
    expect(Object.isFrozen(await s.get('op-1'))).toBe(true);
    // A result of null is kept apart from no result at all.
    expect(await s.update('op-2', { state: 'succeeded', result: null }, 70)).toMatchObject({
      state: 'succeeded',
      result: null,
    });
    expect('result' in (await s.get('op-1'))!).toBe(false);
  });

  it('keeps an idempotency key unique to one operation', async () => {
    const db = database();
    const s = await PostgresOperationStore.open(db.pool, { namespace: 'keys', reset: true });
    await s.create(rec('op-1', { idempotencyKey: 'k' }));
    await expect(s.create(rec('op-2', { idempotencyKey: 'k' }))).rejects.toMatchObject({
      code: 'FAULTLINE_INTERNAL',
      message: 'idempotency key k is already used by another operation',
    });
    // Keyless operations are many.
    await s.create(rec('op-3'));
    await s.create(rec('op-4'));
    expect((await s.list()).map((r) => r.op)).toEqual(['op-1', 'op-3', 'op-4']);
  });

  it('outlives the process that wrote it: another pool opening the namespace sees the records', async () => {
    const db = database();
    const first = await PostgresOperationStore.open(db.pool, { namespace: 'durable', reset: true });
    await first.create(rec('op-1', { idempotencyKey: 'k', businessKey: 'ref-7' }));
    const otherPool = await connectPool(db.pg.url, 2);
    try {
      const second = await PostgresOperationStore.open(otherPool, { namespace: 'durable' });
      expect(await second.findByKey({ kind: 'business', tool: 'create_order', key: 'ref-7' })).toMatchObject({
        op: 'op-1',
        state: 'pending',
      });
      // Namespaces do not meet.
      const stranger = await PostgresOperationStore.open(otherPool, { namespace: 'someone-else' });
      expect(await stranger.get('op-1')).toBeUndefined();
    } finally {
      await otherPool.end();
    }
  });

  it('holds the virtual clock while a query is in flight', async () => {
    const db = database();
    const clock = new VirtualClock(0);
    const s = await PostgresOperationStore.open(db.pool, { namespace: 'clock', clock, reset: true });
    const run = await clock.run(async () => {
      // Without the hold, the clock would see the trial idle and fire the 1 ms timer first.
      let fired = false;
      clock.setTimer(1, () => (fired = true));
      await s.create(rec('op-1'));
      const seen = fired;
      await clock.sleep(5);
      return { firedDuringQuery: seen, at: clock.now() };
    });
    expect(run).toMatchObject({ kind: 'settled', value: { firedDuringQuery: false, at: 5 } });
  });
});
