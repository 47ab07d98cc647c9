import type { OperationPatch, OperationRecord } from './OperationRecord.js';

/** How to find an operation again: by the key sent to the server, or by the tool's business id. */
export type OperationKey =
  | { readonly kind: 'idempotency'; readonly key: string }
  | { readonly kind: 'business'; readonly tool: string; readonly key: string };
export type OperationKeyKind = OperationKey['kind'];

/**
 * Where operation records live. Async because the real one is a database (a Postgres store
 * implements the same interface), so the record is durable before the request leaves.
 */
export interface OperationStore {
  /** Rejects if `record.op` already exists: an operation is created once. */
  create(record: OperationRecord): Promise<void>;
  /** Applies `patch` and stamps `updatedAt`; `undefined` if there is no such operation. */
  update(op: string, patch: OperationPatch, atMs: number): Promise<OperationRecord | undefined>;
  get(op: string): Promise<OperationRecord | undefined>;
  /** The most recently created operation with that key. */
  findByKey(key: OperationKey): Promise<OperationRecord | undefined>;
  /** Every record, in creation order. */
  list(): Promise<readonly OperationRecord[]>;
}
