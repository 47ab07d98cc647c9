import type { PgQueryable } from './PgDatabase.js';

/**
 * The next value of one of a world's counters (1, 2, …), taken inside the caller's
 * transaction: the row stays locked until it commits, so values come out in commit order,
 * and a rollback gives the value back (no gaps, as with the in-memory `IdSource`).
 */
export async function nextCounter(tx: PgQueryable, world: string, name: string): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `INSERT INTO faultline_counters AS c (world, name, n) VALUES ($1, $2, 1)
     ON CONFLICT (world, name) DO UPDATE SET n = c.n + 1
     RETURNING n`,
    [world, name],
  );
  return rows[0]!.n;
}
