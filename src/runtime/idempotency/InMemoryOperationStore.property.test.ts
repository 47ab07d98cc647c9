import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InMemoryOperationStore } from './InMemoryOperationStore.js';
import type { OperationPatch, OperationRecord } from './OperationRecord.js';
import type { OperationKey } from './OperationStore.js';

/** The store as it was written with spreads: what the copies must equal, key for key and in order. */
class SpreadStore {
  readonly records = new Map<string, OperationRecord>();
  create(record: OperationRecord): void {
    if (!this.records.has(record.op)) this.records.set(record.op, Object.freeze({ ...record }));
  }
  update(op: string, patch: OperationPatch, atMs: number): OperationRecord | undefined {
    const current = this.records.get(op);
    if (!current) return undefined;
    const next = Object.freeze({ ...current, ...patch, updatedAt: atMs });
    this.records.set(op, next);
    return next;
  }
  findByKey(key: OperationKey): OperationRecord | undefined {
    return [...this.records.values()]
      .reverse()
      .find((r) =>
        key.kind === 'idempotency' ? r.idempotencyKey === key.key : r.tool === key.tool && r.businessKey === key.key,
      );
  }
}

const ops = fc.constantFrom('op-1', 'op-2', 'op-3');
const keys = fc.constantFrom('k-1', 'k-2', undefined);
const tools = fc.constantFrom('create_order', 'charge_payment');
/** A record with its optional fields present or not, and its keys in any order (a store is handed what a caller built). */
const recordArb = fc
  .record(
    {
      op: ops,
      call: fc.constantFrom('call-1', 'call-2'),
      tool: tools,
      input: fc.jsonValue(),
      idempotencyKey: fc.constantFrom('k-1', 'k-2'),
      businessKey: fc.constantFrom('k-1', 'k-2'),
      state: fc.constantFrom('pending' as const, 'unknown' as const),
      result: fc.jsonValue(),
      createdAt: fc.nat(100),
      updatedAt: fc.nat(100),
    },
    { requiredKeys: ['op', 'call', 'tool', 'input', 'state', 'createdAt', 'updatedAt'] },
  )
  .chain((r) =>
    fc
      .shuffledSubarray(Object.keys(r), { minLength: Object.keys(r).length })
      .map((order) => Object.fromEntries(order.map((k) => [k, r[k as keyof typeof r]])) as unknown as OperationRecord),
  );
const patchArb: fc.Arbitrary<OperationPatch> = fc.record(
  {
    state: fc.constantFrom('unknown' as const, 'succeeded' as const, 'failed' as const),
    result: fc.oneof(fc.jsonValue(), fc.constant(undefined)),
    error: fc.constant({ kind: 'timeout' as const, message: 'slow', retryable: true }),
    idempotencyKey: fc.constantFrom('k-1', 'k-3'),
  },
  { requiredKeys: [] },
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), record: recordArb }),
  fc.record({ kind: fc.constant('update' as const), op: ops, patch: patchArb, at: fc.nat(1_000) }),
  fc.record({
    kind: fc.constant('find' as const),
    key: fc.oneof(
      fc.record({ kind: fc.constant('idempotency' as const), key: keys.map((k) => k ?? 'k-9') }),
      fc.record({ kind: fc.constant('business' as const), tool: tools, key: keys.map((k) => k ?? 'k-9') }),
    ),
  }),
);

const shape = (r: OperationRecord | undefined): unknown =>
  r && { keys: Reflect.ownKeys(r), json: JSON.stringify(r), frozen: Object.isFrozen(r), entries: Object.entries(r) };

describe('InMemoryOperationStore', () => {
  it('keeps and finds records exactly as its spread form did: same keys in the same order, same values, frozen', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const store = new InMemoryOperationStore();
        const reference = new SpreadStore();
        for (const s of steps) {
          switch (s.kind) {
            case 'create':
              reference.create(s.record);
              await store.create(s.record).catch(() => undefined);
              break;
            case 'update':
              expect(shape(await store.update(s.op, s.patch, s.at))).toEqual(
                shape(reference.update(s.op, s.patch, s.at)),
              );
              break;
            case 'find':
              expect(await store.findByKey(s.key)).toBe(await store.get(reference.findByKey(s.key)?.op ?? 'none'));
          }
        }
        expect((await store.list()).map(shape)).toEqual([...reference.records.values()].map(shape));
      }),
    );
  });
});
