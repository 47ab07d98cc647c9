import { describe, expect, it } from 'vitest';
import { InMemoryOperationStore } from './InMemoryOperationStore.js';
import type { OperationRecord } from './OperationRecord.js';

const rec = (op: string, extra: Partial<OperationRecord> = {}): OperationRecord => ({
  op,
  call: `call-${op}`,
  tool: 'create_order',
  input: { ref: 'r' },
  state: 'pending',
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});

describe('InMemoryOperationStore', () => {
  it('creates once, updates with a timestamp, and finds by either key', async () => {
    const s = new InMemoryOperationStore();
    await s.create(rec('op-1', { idempotencyKey: 'idem-a', businessKey: 'ref-1' }));
    await s.create(rec('op-2', { idempotencyKey: 'idem-b', businessKey: 'ref-1' }));
    await expect(s.create(rec('op-1'))).rejects.toMatchObject({ code: 'FAULTLINE_INTERNAL' });
    expect(await s.update('op-1', { state: 'unknown' }, 50)).toMatchObject({
      op: 'op-1',
      state: 'unknown',
      updatedAt: 50,
      createdAt: 0,
    });
    expect(await s.update('op-9', { state: 'failed' }, 60)).toBeUndefined();
    expect((await s.findByKey({ kind: 'idempotency', key: 'idem-a' }))?.op).toBe('op-1');
    expect((await s.findByKey({ kind: 'business', tool: 'create_order', key: 'ref-1' }))?.op).toBe('op-2');
    expect(await s.findByKey({ kind: 'business', tool: 'other', key: 'ref-1' })).toBeUndefined();
    expect((await s.list()).map((r) => r.op)).toEqual(['op-1', 'op-2']);
  });

  it('hands out frozen records', async () => {
    const s = new InMemoryOperationStore();
    await s.create(rec('op-1'));
    expect(Object.isFrozen(await s.get('op-1'))).toBe(true);
  });
});
