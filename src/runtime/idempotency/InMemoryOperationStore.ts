import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import type { OperationPatch, OperationRecord } from './OperationRecord.js';
import type { OperationKey, OperationStore } from './OperationStore.js';

/**
 * The default store: one per trial, gone with it. Records are frozen, so readers cannot edit them.
 * Copies are made with `Object.assign` onto a fresh object, not a spread: the same own keys in the
 * same order (a record's keys are its fields, never `__proto__`), but V8 freezes an object a spread
 * made several times slower, and a spread of two objects slower still (~2 µs per settled write).
 */
export class InMemoryOperationStore implements OperationStore {
  readonly #records = new Map<string, OperationRecord>();

  create(record: OperationRecord): Promise<void> {
    if (this.#records.has(record.op)) {
      return Promise.reject(new FaultlineError(FaultlineErrorCode.Internal, `operation ${record.op} already exists`));
    }
    this.#records.set(record.op, Object.freeze(Object.assign({}, record)));
    return Promise.resolve();
  }

  update(op: string, patch: OperationPatch, atMs: number): Promise<OperationRecord | undefined> {
    const current = this.#records.get(op);
    if (!current) return Promise.resolve(undefined);
    const copy: { -readonly [K in keyof OperationRecord]: OperationRecord[K] } = Object.assign({}, current, patch);
    copy.updatedAt = atMs;
    const next = Object.freeze(copy);
    this.#records.set(op, next);
    return Promise.resolve(next);
  }

  get(op: string): Promise<OperationRecord | undefined> {
    return Promise.resolve(this.#records.get(op));
  }

  findByKey(key: OperationKey): Promise<OperationRecord | undefined> {
    // The last match in creation order, without a reversed copy of every record.
    let hit: OperationRecord | undefined;
    for (const r of this.#records.values()) {
      if (key.kind === 'idempotency' ? r.idempotencyKey === key.key : r.tool === key.tool && r.businessKey === key.key)
        hit = r;
    }
    return Promise.resolve(hit);
  }

  list(): Promise<readonly OperationRecord[]> {
    return Promise.resolve([...this.#records.values()]);
  }
}
