import type { Clock, OperationRef, OperationStatus } from '../../core/index.js';
import { IdempotencyTable, requestText } from '../idempotency.js';
import type { Effect } from '../ledger.js';
import type { ToolContext } from '../tool.js';
import { businessKeyOfRef, failureOf, statusOfBusinessOp, statusOfRecord, type Failure } from './operationStatus.js';
import { idempotencyConfigOf, type ServiceOptions } from './ServiceOptions.js';

/** The fingerprint thunk of a write whose key the table will not honour: the table never calls it. */
const NO_KEY = (): string => '';

/** The two halves of a write: checks made on arrival, and the commit made after processing. */
export interface WriteSteps<T> {
  /** Validation against the request as it arrives (time-relative rules belong here). */
  readonly check?: () => void;
  /** Validates against current state and commits; runs after `processingMs`. */
  readonly commit: () => T | Promise<T>;
}

/**
 * The bookkeeping every built-in service shares: its idempotency table, its processing
 * delay, the ledger commit, and what a status query (R21) can find by key or business key.
 */
export class Operations {
  readonly table: IdempotencyTable;
  readonly processingMs: number;
  // Both maps are made on first use: a world builds every service, and a trial writes to few.
  /** Writes accepted and not yet finished, per business key (0, or absent: none): a status query sees them as pending. */
  #inFlight: Map<string, number> | undefined;
  /** The latest business failure per business key. */
  #failures: Map<string, Failure> | undefined;

  constructor(
    readonly service: string,
    readonly clock: Clock,
    options: ServiceOptions,
  ) {
    this.table = new IdempotencyTable(clock, idempotencyConfigOf(options));
    this.processingMs = options.processingMs ?? 0;
  }

  get honoursIdempotencyKeys(): boolean {
    return this.table.enabled;
  }

  /**
   * Runs one write under the request's idempotency key (unless `honourKeys` is false for this
   * tool), sleeping `processingMs` before the commit.
   */
  write<T>(
    tool: string,
    input: unknown,
    businessKey: string | undefined,
    ctx: ToolContext,
    steps: WriteSteps<T>,
    honourKeys = true,
  ): Promise<T> {
    const key = honourKeys ? ctx.idempotencyKey : undefined;
    // The table reads the request's text only for a key it honours: most writes (a crowd's all) need no thunk for it.
    const fingerprintOf = key === undefined || !this.table.enabled ? NO_KEY : () => requestText(tool, input);
    return this.table.execute(key, fingerprintOf, async () => {
      this.#enter(businessKey);
      try {
        steps.check?.();
        if (this.processingMs > 0) await this.clock.sleep(this.processingMs);
        if (ctx.failure) throw ctx.failure;
        // Awaited here, so the write stays in flight (and a status query sees it pending) until it settles.
        return await steps.commit();
      } catch (error) {
        if (businessKey !== undefined) (this.#failures ??= new Map()).set(businessKey, failureOf(error));
        throw error;
      } finally {
        this.#leave(businessKey);
      }
    });
  }

  /** Appends one effect to the world's ledger, stamped with the request that caused it. */
  commit(ctx: ToolContext, effect: string, key: string, data: unknown): Effect {
    return ctx.world.ledger.commit({
      at: this.clock.now(),
      service: this.service,
      effect,
      key,
      request: ctx.request,
      ...(ctx.idempotencyKey === undefined ? {} : { idempotencyKey: ctx.idempotencyKey }),
      data,
    });
  }

  /**
   * The status of the operation `ref` names: by idempotency key first (the stored first
   * result), then by business key (`find` gives the record's current view).
   */
  status(
    ref: OperationRef,
    businessKeyField: string | undefined,
    find: (businessKey: string) => unknown,
    asOf?: number,
  ): OperationStatus {
    if (ref.idempotencyKey !== undefined) {
      const record = this.table.lookup(ref.idempotencyKey);
      // As of `asOf` (a stale read): a key that came later is unknown, a result that came later is pending.
      if (record && (asOf === undefined || record.createdAt <= asOf)) {
        return asOf !== undefined && record.state === 'completed' && record.completedAt > asOf
          ? { state: 'pending' }
          : statusOfRecord(record);
      }
    }
    const key = businessKeyOfRef(ref, businessKeyField);
    if (key === undefined) return { state: 'not_found' };
    const found = find(key);
    if (found !== undefined) return { state: 'succeeded', value: found };
    // Writes in flight and failures are not kept by time: as of the past, what `find` did not see is not found.
    if (asOf !== undefined) return { state: 'not_found' };
    return statusOfBusinessOp(this.#inFlight?.get(key) ?? 0, this.#failures?.get(key));
  }

  #enter(key: string | undefined): void {
    if (key === undefined) return;
    const inFlight = (this.#inFlight ??= new Map());
    inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
  }

  #leave(key: string | undefined): void {
    if (key === undefined) return;
    const inFlight = this.#inFlight;
    if (!inFlight) return;
    const n = (inFlight.get(key) ?? 1) - 1;
    // A finished key keeps its entry at 0, which reads as an absent one: deleting it and adding it again on the next
    // write made the map rebuild its table over and over (a crowd's retries). One entry per business key ever written, at most.
    inFlight.set(key, n > 0 ? n : 0);
  }
}
