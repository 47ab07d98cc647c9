import {
  canonicalJson,
  type Clock,
  type ErrorData,
  type History,
  type IdSource,
  type ToolContract,
} from '../core/index.js';
import { businessKeyOf } from './businessKey.js';
import { failedCall, type Finished } from './Finished.js';
import type { OperationRecord } from './idempotency/OperationRecord.js';
import type { OperationStore } from './idempotency/OperationStore.js';
import { operationEvent } from './operationEvent.js';

/** A record's next state, as `settle` writes it. */
export type SettlePatch = { state: 'succeeded'; result: unknown } | { state: 'failed' | 'unknown'; error: ErrorData };

/**
 * The executor's operation records (R22): opened before a write's first submission, settled as it ends, each change
 * told to the history; and the journal of an earlier process's definite records that answers replayed calls.
 */
export class OperationBook {
  readonly #store: OperationStore;
  readonly #history: History;
  readonly #clock: Clock;
  readonly #ids: IdSource;
  /** Definite records of an earlier process, answering replayed calls once each (see `Executor.resume`). */
  #journal: OperationRecord[] = [];

  constructor(store: OperationStore, history: History, clock: Clock, ids: IdSource) {
    this.#store = store;
    this.#history = history;
    this.#clock = clock;
    this.#ids = ids;
  }

  /** Keeps the definite records of `records` to answer replayed calls. */
  keepJournal(records: readonly OperationRecord[]): void {
    this.#journal = records.filter((r) => r.state === 'succeeded' || (r.state === 'failed' && r.error !== undefined));
  }

  /** The first unused definite record of an earlier process for the same tool and arguments. */
  fromJournal(tool: string, args: unknown): OperationRecord | undefined {
    if (this.#journal.length === 0) return undefined;
    const text = canonicalJson(args);
    const i = this.#journal.findIndex((r) => r.tool === tool && canonicalJson(r.input) === text);
    if (i < 0) return undefined;
    return this.#journal.splice(i, 1)[0];
  }

  /** Answers a replayed call from its record: no attempt leaves, the history says which record answered. */
  replay(call: string, record: OperationRecord, input: unknown): Finished {
    const tool = record.tool;
    this.#history.stamp(
      operationEvent(
        record.op,
        call,
        tool,
        record.state === 'succeeded' ? 'succeeded' : 'failed',
        record.idempotencyKey,
        record.businessKey,
      ),
    );
    if (record.state === 'failed' && record.error)
      return { ...failedCall(call, tool, input, 0, record.error), op: record.op };
    return { result: { kind: 'ok', call, tool, attempts: 0, value: record.result }, op: record.op };
  }

  /**
   * Writes the record before the first submission (R22). A resubmission of an operation whose
   * outcome is unknown, with the same business key and parameters, reuses its record and key.
   */
  async open(call: string, contract: ToolContract, args: unknown, key: string | undefined): Promise<OperationRecord> {
    const tool = contract.name;
    const businessKey = businessKeyOf(contract, args);
    const prior =
      businessKey === undefined ? undefined : await this.#store.findByKey({ kind: 'business', tool, key: businessKey });
    const reuse = prior?.state === 'unknown' && canonicalJson(prior.input) === canonicalJson(args);
    const now = this.#clock.now();
    const record: OperationRecord =
      reuse && prior
        ? prior
        : {
            op: this.#ids.next('op'),
            call,
            tool,
            input: args,
            ...(key !== undefined && { idempotencyKey: key }),
            ...(businessKey !== undefined && { businessKey }),
            state: 'pending',
            createdAt: now,
            updatedAt: now,
          };
    if (!reuse) await this.#store.create(record);
    this.#history.stamp(operationEvent(record.op, call, tool, 'recorded', record.idempotencyKey, record.businessKey));
    return record;
  }

  /** Updates the record and tells the history; keeps the given record if the store lost it. */
  async settle(record: OperationRecord, call: string, patch: SettlePatch): Promise<OperationRecord> {
    const updated = (await this.#store.update(record.op, patch, this.#clock.now())) ?? { ...record, ...patch };
    this.#history.stamp(
      operationEvent(record.op, call, record.tool, patch.state, updated.idempotencyKey, updated.businessKey),
    );
    return updated;
  }
}
