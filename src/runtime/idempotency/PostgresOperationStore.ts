import type { PoolClient, QueryResultRow } from 'pg';
import { FaultlineError, FaultlineErrorCode, type Clock, type ErrorData } from '../../core/index.js';
import type { OperationPatch, OperationRecord, OperationRecordState } from './OperationRecord.js';
import type { OperationKey, OperationStore } from './OperationStore.js';

/** Where connections come from: a `pg.Pool`, or anything else that hands out pool clients. */
export interface OperationStoreConnector {
  connect(): Promise<PoolClient>;
}

export interface PostgresOperationStoreOptions {
  /**
   * Whose records these are (an agent, a task, a trial): processes that open the same
   * namespace share records, which is what lets a restarted process resume (R22, R25).
   */
  readonly namespace: string;
  /** Held around every query, so a virtual clock stands still while one is in flight. */
  readonly clock?: Clock;
  /** Delete the namespace's records first (default `false`: a store is opened to resume). */
  readonly reset?: boolean;
}

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS faultline_operations (
  namespace text NOT NULL,
  op text NOT NULL,
  seq bigserial NOT NULL,
  call text NOT NULL,
  tool text NOT NULL,
  input text NOT NULL,
  idempotency_key text,
  business_key text,
  state text NOT NULL CHECK (state IN ('pending', 'unknown', 'succeeded', 'failed')),
  result text,
  error text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (namespace, op)
);
CREATE UNIQUE INDEX IF NOT EXISTS faultline_operations_key ON faultline_operations (namespace, idempotency_key);
CREATE INDEX IF NOT EXISTS faultline_operations_business ON faultline_operations (namespace, tool, business_key, seq);
`;

/** An arbitrary constant: concurrent migrations of one database take turns on it. */
const MIGRATION_LOCK = 7_031_959;
const UNIQUE_VIOLATION = '23505';

interface Row {
  op: string;
  call: string;
  tool: string;
  input: string;
  idempotency_key: string | null;
  business_key: string | null;
  state: OperationRecordState;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'op, call, tool, input, idempotency_key, business_key, state, result, error, created_at, updated_at';

type Holding = Clock & { hold<T>(work: Promise<T>): Promise<T> };
const holds = (clock: Clock | undefined): clock is Holding =>
  clock !== undefined && typeof (clock as Partial<Holding>).hold === 'function';

const migrated = new WeakMap<OperationStoreConnector, Promise<void>>();

/**
 * Operation records (R22) in Postgres, behind the same interface as the in-memory store, so
 * they outlive the process that wrote them: one that dies between the service's commit and
 * recording the answer leaves its record `pending`, and the next process finds it by key and
 * reconciles it. Idempotency keys are unique per namespace (one key, one operation), enforced
 * by a unique index; creating an operation twice is refused by the primary key.
 */
export class PostgresOperationStore implements OperationStore {
  private constructor(
    private readonly connector: OperationStoreConnector,
    readonly namespace: string,
    private readonly clock: Clock | undefined,
  ) {}

  /** Creates the table if it is missing (once per connector) and opens one namespace. */
  static async open(
    connector: OperationStoreConnector,
    options: PostgresOperationStoreOptions,
  ): Promise<PostgresOperationStore> {
    const store = new PostgresOperationStore(connector, options.namespace, options.clock);
    let done = migrated.get(connector);
    if (!done) {
      done = store.#migrate();
      migrated.set(connector, done);
      void done.catch(() => migrated.delete(connector));
    }
    await done;
    if (options.reset) await store.#query('DELETE FROM faultline_operations WHERE namespace = $1', [options.namespace]);
    return store;
  }

  /** The same records, held on another clock (one per trial or process). */
  withClock(clock: Clock): PostgresOperationStore {
    return new PostgresOperationStore(this.connector, this.namespace, clock);
  }

  async create(record: OperationRecord): Promise<void> {
    try {
      await this.#query(
        `INSERT INTO faultline_operations (
           namespace, op, call, tool, input, idempotency_key, business_key, state, result, error, created_at, updated_at
         )
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          this.namespace,
          record.op,
          record.call,
          record.tool,
          JSON.stringify(record.input) ?? 'null',
          record.idempotencyKey ?? null,
          record.businessKey ?? null,
          record.state,
          'result' in record ? encode(record.result) : null,
          record.error === undefined ? null : JSON.stringify(record.error),
          record.createdAt,
          record.updatedAt,
        ],
      );
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      const constraint = (error as { constraint?: unknown }).constraint;
      const what =
        constraint === 'faultline_operations_key'
          ? `idempotency key ${record.idempotencyKey ?? ''} is already used by another operation`
          : `operation ${record.op} already exists`;
      throw new FaultlineError(FaultlineErrorCode.Internal, what, { op: record.op });
    }
  }

  async update(op: string, patch: OperationPatch, atMs: number): Promise<OperationRecord | undefined> {
    const sets: string[] = ['updated_at = $3'];
    const params: unknown[] = [this.namespace, op, atMs];
    const set = (column: string, value: unknown): void => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (patch.state !== undefined) set('state', patch.state);
    if ('result' in patch) set('result', encode(patch.result));
    if (patch.error !== undefined) set('error', JSON.stringify(patch.error));
    if (patch.idempotencyKey !== undefined) set('idempotency_key', patch.idempotencyKey);
    const rows = await this.#query<Row>(
      `UPDATE faultline_operations SET ${sets.join(', ')} WHERE namespace = $1 AND op = $2 RETURNING ${COLUMNS}`,
      params,
    );
    return rows[0] && recordOf(rows[0]);
  }

  async get(op: string): Promise<OperationRecord | undefined> {
    const rows = await this.#query<Row>(
      `SELECT ${COLUMNS} FROM faultline_operations WHERE namespace = $1 AND op = $2`,
      [this.namespace, op],
    );
    return rows[0] && recordOf(rows[0]);
  }

  async findByKey(key: OperationKey): Promise<OperationRecord | undefined> {
    const rows =
      key.kind === 'idempotency'
        ? await this.#query<Row>(
            `SELECT ${COLUMNS} FROM faultline_operations WHERE namespace = $1 AND idempotency_key = $2 ORDER BY seq DESC LIMIT 1`,
            [this.namespace, key.key],
          )
        : await this.#query<Row>(
            `SELECT ${COLUMNS} FROM faultline_operations WHERE namespace = $1 AND tool = $2 AND ` +
              `business_key = $3 ORDER BY seq DESC LIMIT 1`,
            [this.namespace, key.tool, key.key],
          );
    return rows[0] && recordOf(rows[0]);
  }

  async list(): Promise<readonly OperationRecord[]> {
    const rows = await this.#query<Row>(
      `SELECT ${COLUMNS} FROM faultline_operations WHERE namespace = $1 ORDER BY seq`,
      [this.namespace],
    );
    return rows.map(recordOf);
  }

  async #migrate(): Promise<void> {
    const client = await this.#hold(this.connector.connect());
    try {
      await this.#hold(client.query('BEGIN'));
      await this.#hold(client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]));
      await this.#hold(client.query(SCHEMA_SQL));
      await this.#hold(client.query('COMMIT'));
    } catch (error) {
      await this.#hold(client.query('ROLLBACK')).catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async #query<R extends QueryResultRow>(sql: string, params: readonly unknown[]): Promise<R[]> {
    const client = await this.#hold(this.connector.connect());
    try {
      return (await this.#hold(client.query<R>(sql, [...params]))).rows;
    } finally {
      client.release();
    }
  }

  #hold<T>(work: Promise<T>): Promise<T> {
    return holds(this.clock) ? this.clock.hold(work) : work;
  }
}

/** JSON text that keeps `undefined` apart from `null`: a tool may answer either. */
const encode = (value: unknown): string => JSON.stringify({ value });
const decode = (text: string): unknown => (JSON.parse(text) as { value?: unknown }).value;

function recordOf(row: Row): OperationRecord {
  return Object.freeze({
    op: row.op,
    call: row.call,
    tool: row.tool,
    input: JSON.parse(row.input) as unknown,
    ...(row.idempotency_key === null ? {} : { idempotencyKey: row.idempotency_key }),
    ...(row.business_key === null ? {} : { businessKey: row.business_key }),
    state: row.state,
    ...(row.result === null ? {} : { result: decode(row.result) }),
    ...(row.error === null ? {} : { error: JSON.parse(row.error) as ErrorData }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}
