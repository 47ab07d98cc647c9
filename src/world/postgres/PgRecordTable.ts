import type { QueryResultRow } from 'pg';
import type { PgDatabase, PgQueryable } from './PgDatabase.js';

/** How one business table's rows map to what the service returns. */
export interface PgRecordTableShape<Row extends QueryResultRow, V, R> {
  readonly table: string;
  readonly columns: string;
  readonly idColumn: string;
  readonly referenceColumn: string;
  readonly idOf: (row: Row) => string;
  readonly viewOf: (row: Row) => V;
  readonly recordOf: (row: Row) => R;
}

/**
 * The reads a Postgres service makes of its own table, scoped to one world: by id (locking
 * the row inside a transaction when asked), by business reference, and all of it in insertion order.
 */
export class PgRecordTable<Row extends QueryResultRow, V, R> {
  constructor(
    private readonly db: PgDatabase,
    private readonly world: string,
    private readonly shape: PgRecordTableShape<Row, V, R>,
  ) {}

  async byId(id: string, on: PgQueryable = this.db, lock = false): Promise<V | undefined> {
    const { table, columns, idColumn, viewOf } = this.shape;
    const rows = await on.query<Row>(
      `SELECT ${columns} FROM ${table} WHERE world = $1 AND ${idColumn} = $2${lock ? ' FOR UPDATE' : ''}`,
      [this.world, id],
    );
    return rows[0] && viewOf(rows[0]);
  }

  /** Every row with this reference, oldest first. */
  async byReference(reference: string): Promise<V[]> {
    const { table, columns, referenceColumn, viewOf } = this.shape;
    const rows = await this.db.query<Row>(
      `SELECT ${columns} FROM ${table} WHERE world = $1 AND ${referenceColumn} = $2 ORDER BY n`,
      [this.world, reference],
    );
    return rows.map(viewOf);
  }

  /** The whole table as a snapshot keeps it, keyed by id. */
  async snapshot(): Promise<Record<string, R>> {
    const { table, columns, idOf, recordOf } = this.shape;
    const rows = await this.db.query<Row>(`SELECT ${columns} FROM ${table} WHERE world = $1 ORDER BY n`, [this.world]);
    return Object.fromEntries(rows.map((r) => [idOf(r), recordOf(r)]));
  }
}
