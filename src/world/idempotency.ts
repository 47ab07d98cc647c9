import { canonicalJson, HttpError, sha256, stackless, type Clock } from '../core/index.js';

/** Stripe keeps idempotency keys for 24 hours (R24). */
export const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Whether a service honours idempotency keys, and for how long it remembers them. */
export interface IdempotencyConfig {
  readonly enabled: boolean;
  /** Virtual milliseconds from the first request with a key until the key may be reused as new. */
  readonly retentionMs: number;
}

/** The first result for a key, kept to be replayed verbatim. */
export type StoredResult =
  { readonly kind: 'value'; readonly value: unknown } | { readonly kind: 'error'; readonly error: unknown };
export type StoredResultKind = StoredResult['kind'];

/** What the server remembers about one idempotency key. */
export type IdempotencyRecord =
  | { readonly state: 'in_flight'; readonly key: string; readonly fingerprint: string; readonly createdAt: number }
  | {
      readonly state: 'completed';
      readonly key: string;
      readonly fingerprint: string;
      readonly createdAt: number;
      readonly completedAt: number;
      readonly result: StoredResult;
    };
export type IdempotencyRecordState = IdempotencyRecord['state'];

/**
 * What a key is bound to in memory: the tool and its input, as canonical JSON. Two requests are
 * the same one exactly when their texts are equal, so the in-memory table compares the texts
 * themselves: hashing them cost a call into the crypto library for every keyed write.
 */
export const requestText = (tool: string, input: unknown): string => canonicalJson({ tool, input });

/** The request fingerprint a key is bound to where it is stored in a database row: `requestText`'s sha256. */
export const requestFingerprint = (tool: string, input: unknown): string => sha256(requestText(tool, input));

/**
 * Server-side idempotency for one service (R24): a reused key with the same parameters
 * replays the first result, even an error; with other parameters it is refused (422); a
 * duplicate arriving while the first is still running is refused (409), never run twice.
 */
export class IdempotencyTable {
  readonly config: IdempotencyConfig;
  /** Made on the first honoured key: most of a world's services never see one. */
  #records: Map<string, IdempotencyRecord> | undefined;

  constructor(
    private readonly clock: Clock,
    config: Partial<IdempotencyConfig> = {},
  ) {
    this.config = { enabled: config.enabled ?? true, retentionMs: config.retentionMs ?? DEFAULT_RETENTION_MS };
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /**
   * Runs `run` at most once per live key; without a key, or when disabled, just runs it.
   * `fingerprintOf` is called only when a key is honoured: hashing every request's input
   * costs a crowd's deliveries more than the rest of the write.
   */
  async execute<T>(key: string | undefined, fingerprintOf: () => string, run: () => Promise<T> | T): Promise<T> {
    if (!this.config.enabled || key === undefined) return run();
    const fingerprint = fingerprintOf();
    const known = this.lookup(key);
    if (known) return replayRecord<T>(known, fingerprint);
    // Marked before the first await, so a concurrent copy sees it in flight.
    const createdAt = this.clock.now();
    const records = (this.#records ??= new Map());
    records.set(key, { state: 'in_flight', key, fingerprint, createdAt });
    const settle = (result: StoredResult): void => {
      records.set(key, { state: 'completed', key, fingerprint, createdAt, completedAt: this.clock.now(), result });
    };
    try {
      const value = await run();
      settle({ kind: 'value', value });
      return value;
    } catch (error) {
      settle({ kind: 'error', error });
      throw error;
    }
  }

  /** The live record for `key`; an expired one is forgotten and reads as absent. */
  lookup(key: string): IdempotencyRecord | undefined {
    const record = this.#records?.get(key);
    if (record?.state === 'completed' && this.clock.now() - record.createdAt >= this.config.retentionMs) {
      this.#records?.delete(key);
      return undefined;
    }
    return record;
  }
}

/**
 * What a request meets when its key already has a record: 409 while the first is in flight,
 * 422 for other parameters, else the first result (its error thrown again). Shared with the
 * Postgres table so both backends answer alike.
 */
export function replayRecord<T>(record: IdempotencyRecord, fingerprint: string): T {
  if (record.state === 'in_flight') {
    const message = `a request with idempotency key "${record.key}" is still being processed; retry later`;
    throw stackless(
      () => new HttpError(409, message, { error: { type: 'idempotency_error', code: 'concurrent_request', message } }),
    );
  }
  if (record.fingerprint !== fingerprint) {
    const message = `idempotency key "${record.key}" was already used with different parameters; use a new key for a new request`;
    throw stackless(
      () =>
        new HttpError(422, message, {
          error: { type: 'idempotency_error', code: 'key_reused_with_different_parameters', message },
        }),
    );
  }
  if (record.result.kind === 'error') throw record.result.error;
  return record.result.value as T;
}
