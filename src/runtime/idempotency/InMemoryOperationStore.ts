import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import type { OperationPatch, OperationRecord } from './OperationRecord.js';
import type { OperationKey, OperationStore } from './OperationStore.js';

/** The default store: one per trial, gone with it. Records are frozen, so readers cannot edit them. */
export class InMemoryOperationStore implements OperationStore {
  readonly #records = new Map<string, OperationRecord>();

  create(record: OperationRecord): Promise<void> {
    if (this.#records.has(record.op)) {
      return Promise.reject(new FaultlineError(FaultlineErrorCode.Internal, `operation ${record.op} already exists`));
    }
    this.#records.set(record.op, Object.freeze({ ...record }));
    return Promise.resolve();
  }

  update(op: string, patch: OperationPatch, atMs: number): Promise<OperationRecord | undefined> {
    const current = this.#records.get(op);
    if (!current) return Promise.resolve(undefined);
    const next = Object.freeze({ ...current, ...patch, updatedAt: atMs });
    this.#records.set(op, next);
    return Promise.resolve(next);
  }

  get(op: string): Promise<OperationRecord | undefined> {
    return Promise.resolve(this.#records.get(op));
  }

  findByKey(key: OperationKey): Promise<OperationRecord | undefined> {
    const all = [...this.#records.values()].reverse();
    const hit = all.find((r) =>
      key.kind === 'idempotency' ? r.idempotencyKey === key.key : r.tool === key.tool && r.businessKey === key.key,
    );
    return Promise.resolve(hit);
  }

  list(): Promise<readonly OperationRecord[]> {
    return Promise.resolve([...this.#records.values()]);
  }
}
