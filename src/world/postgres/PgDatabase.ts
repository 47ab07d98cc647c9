import type { PoolClient, QueryResultRow } from 'pg';
import type { Clock } from '../../core/index.js';

/** Where connections come from: a `pg.Pool`, or anything else that hands out pool clients. */
export interface PgConnector {
  connect(): Promise<PoolClient>;
}

/** One connection's queries, inside or outside a transaction. */
export interface PgQueryable {
  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

type Holding = Clock & { hold<T>(work: Promise<T>): Promise<T> };
const holds = (clock: Clock | undefined): clock is Holding =>
  clock !== undefined && typeof (clock as Partial<Holding>).hold === 'function';

/**
 * A connector bound to a trial's clock. Every round trip is wrapped in `clock.hold`, so a
 * virtual clock stands still while a query is in flight instead of reading the trial as
 * idle and jumping time (or calling it hung).
 */
export class PgDatabase implements PgQueryable {
  constructor(
    readonly connector: PgConnector,
    readonly clock?: Clock,
  ) {}

  /** The same connections, held on another clock (one per trial). */
  withClock(clock: Clock): PgDatabase {
    return new PgDatabase(this.connector, clock);
  }

  hold<T>(work: Promise<T>): Promise<T> {
    return holds(this.clock) ? this.clock.hold(work) : work;
  }

  async query<R extends QueryResultRow = QueryResultRow>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    const client = await this.hold(this.connector.connect());
    try {
      return (await this.hold(client.query<R>(sql, [...params]))).rows;
    } finally {
      client.release();
    }
  }

  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  async transaction<T>(work: (tx: PgQueryable) => Promise<T>): Promise<T> {
    const client = await this.hold(this.connector.connect());
    const tx: PgQueryable = {
      query: async <R extends QueryResultRow>(sql: string, params: readonly unknown[] = []) =>
        (await this.hold(client.query<R>(sql, [...params]))).rows,
    };
    let broken: Error | undefined;
    try {
      await tx.query('BEGIN');
      const value = await work(tx);
      await tx.query('COMMIT');
      return value;
    } catch (error) {
      try {
        await tx.query('ROLLBACK');
      } catch (rollback) {
        // A connection that cannot roll back is not handed to the next caller.
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      }
      throw error;
    } finally {
      client.release(broken ?? false);
    }
  }
}

/** pg returns bigint columns as strings: every number we store fits a double. */
export const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
