import type { Clock } from '../../core/index.js';
import {
  DEFAULT_RETENTION_MS,
  replayRecord,
  type IdempotencyConfig,
  type IdempotencyRecord,
  type StoredResult,
} from '../idempotency.js';
import { num, type PgDatabase, type PgQueryable } from './PgDatabase.js';
import { decodeResult, encodeResult } from './storedResult.js';

/** What claiming a key gave: the right to run the request, or the record that was there first. */
export type Claim =
  | { readonly kind: 'claimed'; readonly key: string }
  | { readonly kind: 'existing'; readonly record: IdempotencyRecord };
export type ClaimKind = Claim['kind'];

interface Row {
  key: string;
  fingerprint: string;
  state: 'in_flight' | 'completed';
  created_at: string;
  completed_at: string | null;
  result: string | null;
}

/**
 * Server-side idempotency (R24) in a Postgres table, the same semantics as the in-memory
 * `IdempotencyTable`, with the database deciding every race: a key is claimed by one
 * `INSERT … ON CONFLICT` (an expired completed key is reclaimed by the same statement), so
 * of any number of concurrent copies, on any number of connections or processes, exactly one
 * runs; the others see it in flight (409) or replay its stored result. Expiry is measured on
 * the time the caller passes in: the trial's virtual clock, never the database's.
 */
export class PgIdempotencyTable {
  readonly config: IdempotencyConfig;
  /** The tail of this process's claims: see `claim`. */
  #claims: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: PgDatabase,
    readonly world: string,
    readonly service: string,
    private readonly clock: Clock,
    config: Partial<IdempotencyConfig> = {},
  ) {
    this.config = { enabled: config.enabled ?? true, retentionMs: config.retentionMs ?? DEFAULT_RETENTION_MS };
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /**
   * Marks `key` in flight for this request, unless a live record holds it. Claims from one
   * process go to the database in arrival order, so the copy that arrived first wins here as
   * it does in memory (a trial replays the same); between processes the database decides.
   */
  claim(key: string, fingerprint: string, nowMs = this.clock.now()): Promise<Claim> {
    const next = this.#claims.then(() => this.#claim(key, fingerprint, nowMs));
    this.#claims = next.catch(() => undefined);
    return next;
  }

  async #claim(key: string, fingerprint: string, nowMs: number): Promise<Claim> {
    const claimed = await this.db.query<{ key: string }>(
      `INSERT INTO faultline_idempotency AS t (world, service, key, fingerprint, state, created_at)
       VALUES ($1, $2, $3, $4, 'in_flight', $5)
       ON CONFLICT (world, service, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight', created_at = EXCLUDED.created_at,
             completed_at = NULL, result = NULL
         WHERE t.state = 'completed' AND EXCLUDED.created_at - t.created_at >= $6
       RETURNING key`,
      [this.world, this.service, key, fingerprint, nowMs, this.config.retentionMs],
    );
    if (claimed.length > 0) return { kind: 'claimed', key };
    const record = await this.lookup(key, nowMs);
    // The row cannot vanish between the two statements (keys are only ever reclaimed, never
    // deleted, outside a world reset), so a miss here means the world was reset under us.
    return record ? { kind: 'existing', record } : this.#claim(key, fingerprint, nowMs);
  }

  /** Stores the first result for a claimed key; pass the business transaction so both commit together. */
  async complete(
    key: string,
    result: StoredResult,
    on: PgQueryable = this.db,
    nowMs = this.clock.now(),
  ): Promise<void> {
    await on.query(
      `UPDATE faultline_idempotency SET state = 'completed', completed_at = $4, result = $5
       WHERE world = $1 AND service = $2 AND key = $3 AND state = 'in_flight'`,
      [this.world, this.service, key, nowMs, encodeResult(result)],
    );
  }

  /** The live record for `key`; an expired one reads as absent (the next claim reclaims it). */
  async lookup(key: string, nowMs = this.clock.now()): Promise<IdempotencyRecord | undefined> {
    const rows = await this.db.query<Row>(
      'SELECT key, fingerprint, state, created_at, completed_at, result FROM faultline_idempotency ' +
        'WHERE world = $1 AND service = $2 AND key = $3',
      [this.world, this.service, key],
    );
    const row = rows[0];
    if (!row) return undefined;
    const createdAt = num(row.created_at);
    if (row.state === 'in_flight' || row.result === null)
      return { state: 'in_flight', key, fingerprint: row.fingerprint, createdAt };
    if (nowMs - createdAt >= this.config.retentionMs) return undefined;
    return {
      state: 'completed',
      key,
      fingerprint: row.fingerprint,
      createdAt,
      completedAt: num(row.completed_at ?? row.created_at),
      result: decodeResult(row.result),
    };
  }

  /**
   * Runs `run` at most once per live key, as `IdempotencyTable.execute` does; `run` gets the
   * transaction-aware completion so a caller that commits in a transaction can store the
   * result in it. Without a key, or when disabled, it just runs.
   */
  async execute<T>(key: string | undefined, fingerprint: string, run: () => Promise<T>): Promise<T> {
    if (!this.config.enabled || key === undefined) return run();
    const claim = await this.claim(key, fingerprint);
    if (claim.kind === 'existing') return replayRecord<T>(claim.record, fingerprint);
    try {
      const value = await run();
      await this.complete(key, { kind: 'value', value });
      return value;
    } catch (error) {
      await this.complete(key, { kind: 'error', error });
      throw error;
    }
  }
}
