import type { Clock, OperationRef, OperationStatus } from '../../core/index.js';
import { replayRecord, requestFingerprint } from '../idempotency.js';
import type { Effect } from '../ledger.js';
import {
  businessKeyOfRef,
  failureOf,
  statusOfBusinessOp,
  statusOfRecord,
  type Failure,
} from '../services/operationStatus.js';
import { idempotencyConfigOf, type ServiceOptions } from '../services/ServiceOptions.js';
import type { ToolContext } from '../tool.js';
import { nextCounter } from './counters.js';
import type { PgDatabase, PgQueryable } from './PgDatabase.js';
import { PgIdempotencyTable } from './PgIdempotencyTable.js';
import type { PgLedger } from './PgLedger.js';

/** Appends one effect inside the write's transaction. */
export type CommitEffect = (effect: string, key: string, data: unknown) => Promise<void>;

/** The two halves of a write, as `WriteSteps` has them, with the commit in a transaction. */
export interface PgWriteSteps<T> {
  /** Validation against the request as it arrives. */
  readonly check?: () => void;
  /** Validates against current rows (locking what it reads) and commits; runs after `processingMs`. */
  readonly commit: (tx: PgQueryable, effect: CommitEffect) => Promise<T>;
}

/** The name of the counter that numbers a world's effects. */
const LEDGER_COUNTER = 'ledger';

/**
 * `Operations` for a Postgres-backed service: the idempotency table, the processing delay,
 * the effect ledger and what status queries find, all in the database. A write's business
 * rows, its effects and its stored first result commit in one transaction, so no process
 * can see an effect without the result that replays it, or the other way round.
 */
export class PgOperations {
  readonly table: PgIdempotencyTable;
  readonly processingMs: number;

  constructor(
    readonly service: string,
    readonly db: PgDatabase,
    readonly world: string,
    readonly ledger: PgLedger,
    readonly clock: Clock,
    options: ServiceOptions,
  ) {
    this.table = new PgIdempotencyTable(db, world, service, clock, idempotencyConfigOf(options));
    this.processingMs = options.processingMs ?? 0;
  }

  get honoursIdempotencyKeys(): boolean {
    return this.table.enabled;
  }

  /** Runs one write under the request's idempotency key, sleeping `processingMs` before the commit. */
  async write<T>(
    tool: string,
    input: unknown,
    businessKey: string | undefined,
    ctx: ToolContext,
    steps: PgWriteSteps<T>,
  ): Promise<T> {
    const key = this.table.enabled ? ctx.idempotencyKey : undefined;
    const fingerprint = requestFingerprint(tool, input);
    if (key !== undefined) {
      const claim = await this.table.claim(key, fingerprint);
      if (claim.kind === 'existing') return replayRecord<T>(claim.record, fingerprint);
    }
    let value: T;
    try {
      value = await this.#run(key, businessKey, ctx, steps);
    } catch (error) {
      if (key !== undefined) await this.table.complete(key, { kind: 'error', error });
      throw error;
    }
    return value;
  }

  async #run<T>(
    key: string | undefined,
    businessKey: string | undefined,
    ctx: ToolContext,
    steps: PgWriteSteps<T>,
  ): Promise<T> {
    await this.#enter(businessKey);
    try {
      steps.check?.();
      if (this.processingMs > 0) await this.clock.sleep(this.processingMs);
      if (ctx.failure) throw ctx.failure;
      const written: Effect[] = [];
      const value = await this.db.transaction(async (tx) => {
        const out = await steps.commit(tx, (effect, effectKey, data) =>
          this.#effect(tx, ctx, effect, effectKey, data, written),
        );
        if (key !== undefined) await this.table.complete(key, { kind: 'value', value: out }, tx);
        return out;
      });
      this.ledger.mirror(written);
      return value;
    } catch (error) {
      if (businessKey !== undefined) await this.#fail(businessKey, failureOf(error));
      throw error;
    } finally {
      await this.#leave(businessKey);
    }
  }

  async #effect(
    tx: PgQueryable,
    ctx: ToolContext,
    effect: string,
    key: string,
    data: unknown,
    written: Effect[],
  ): Promise<void> {
    const seq = (await nextCounter(tx, this.world, LEDGER_COUNTER)) - 1;
    const at = this.clock.now();
    const text = JSON.stringify(data);
    await tx.query(
      `INSERT INTO faultline_effects (world, seq, at, service, effect, key, request, idempotency_key, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [this.world, seq, at, this.service, effect, key, ctx.request, ctx.idempotencyKey ?? null, text],
    );
    written.push({
      seq,
      at,
      service: this.service,
      effect,
      key,
      request: ctx.request,
      ...(ctx.idempotencyKey === undefined ? {} : { idempotencyKey: ctx.idempotencyKey }),
      data: JSON.parse(text) as unknown,
    });
  }

  /**
   * The status of the operation `ref` names: by idempotency key first (the stored first
   * result), then by business key (`find` reads the record's current view).
   */
  async status(
    ref: OperationRef,
    businessKeyField: string | undefined,
    find: (businessKey: string) => Promise<unknown>,
  ): Promise<OperationStatus> {
    if (ref.idempotencyKey !== undefined && this.table.enabled) {
      const record = await this.table.lookup(ref.idempotencyKey);
      if (record) return statusOfRecord(record);
    }
    const key = businessKeyOfRef(ref, businessKeyField);
    if (key === undefined) return { state: 'not_found' };
    const found = await find(key);
    if (found !== undefined) return { state: 'succeeded', value: found };
    const rows = await this.db.query<{ in_flight: number; fail_status: number | null; fail_message: string | null }>(
      'SELECT in_flight, fail_status, fail_message FROM faultline_business_ops WHERE world = $1 AND service = $2 AND business_key = $3',
      [this.world, this.service, key],
    );
    const row = rows[0];
    const failure =
      row && row.fail_status !== null ? { status: row.fail_status, message: row.fail_message ?? '' } : undefined;
    return statusOfBusinessOp(row?.in_flight ?? 0, failure);
  }

  async #enter(key: string | undefined): Promise<void> {
    if (key === undefined) return;
    await this.db.query(
      `INSERT INTO faultline_business_ops AS b (world, service, business_key, in_flight) VALUES ($1, $2, $3, 1)
       ON CONFLICT (world, service, business_key) DO UPDATE SET in_flight = b.in_flight + 1`,
      [this.world, this.service, key],
    );
  }

  async #leave(key: string | undefined): Promise<void> {
    if (key === undefined) return;
    await this.db.query(
      'UPDATE faultline_business_ops SET in_flight = GREATEST(in_flight - 1, 0) WHERE world = $1 AND service = $2 AND business_key = $3',
      [this.world, this.service, key],
    );
  }

  async #fail(key: string, failure: Failure): Promise<void> {
    await this.db.query(
      'UPDATE faultline_business_ops SET fail_status = $4, fail_message = $5 WHERE world = $1 AND service = $2 AND business_key = $3',
      [this.world, this.service, key, failure.status, failure.message],
    );
  }
}
