import type { PgConnector, PgDatabase } from './PgDatabase.js';

/**
 * The world's tables. Every row carries its world's id, so many trials (and many processes
 * serving one trial) share one database. Stored answers and effect data are JSON text, kept
 * verbatim so a replay gives back exactly what was first answered.
 */
export const WORLD_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS faultline_idempotency (
  world text NOT NULL,
  service text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_flight', 'completed')),
  created_at bigint NOT NULL,
  completed_at bigint,
  result text,
  PRIMARY KEY (world, service, key)
);
CREATE TABLE IF NOT EXISTS faultline_counters (
  world text NOT NULL,
  name text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (world, name)
);
CREATE TABLE IF NOT EXISTS faultline_effects (
  world text NOT NULL,
  seq integer NOT NULL,
  at bigint NOT NULL,
  service text NOT NULL,
  effect text NOT NULL,
  key text NOT NULL,
  request text NOT NULL,
  idempotency_key text,
  data text NOT NULL,
  PRIMARY KEY (world, seq)
);
CREATE TABLE IF NOT EXISTS faultline_business_ops (
  world text NOT NULL,
  service text NOT NULL,
  business_key text NOT NULL,
  in_flight integer NOT NULL DEFAULT 0,
  fail_status integer,
  fail_message text,
  PRIMARY KEY (world, service, business_key)
);
CREATE TABLE IF NOT EXISTS faultline_orders (
  world text NOT NULL,
  order_id text NOT NULL,
  n integer NOT NULL,
  client_reference text NOT NULL,
  item text NOT NULL,
  quantity integer NOT NULL,
  amount_cents bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('created', 'paid', 'cancelled')),
  PRIMARY KEY (world, order_id)
);
CREATE INDEX IF NOT EXISTS faultline_orders_reference ON faultline_orders (world, client_reference, n);
CREATE TABLE IF NOT EXISTS faultline_payments (
  world text NOT NULL,
  payment_id text NOT NULL,
  n integer NOT NULL,
  payment_reference text NOT NULL,
  order_id text,
  amount_cents bigint NOT NULL,
  currency text NOT NULL,
  refunded_cents bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('charged', 'partially_refunded', 'refunded')),
  PRIMARY KEY (world, payment_id)
);
CREATE INDEX IF NOT EXISTS faultline_payments_reference ON faultline_payments (world, payment_reference, n);
`;

/** Tables that hold one world's rows, cleared when a world id is opened afresh. */
export const WORLD_TABLES = [
  'faultline_idempotency',
  'faultline_counters',
  'faultline_effects',
  'faultline_business_ops',
  'faultline_orders',
  'faultline_payments',
] as const;

/** An arbitrary constant: concurrent migrations of one database take turns on it. */
const MIGRATION_LOCK = 7_031_958;

const migrated = new WeakMap<PgConnector, Promise<void>>();

/**
 * Creates the world's tables if they are missing, once per connector. `CREATE TABLE IF NOT
 * EXISTS` alone races between processes (both see no table, one fails on the catalog's unique
 * index), so the statements run under a transaction-scoped advisory lock.
 */
export function ensureWorldSchema(db: PgDatabase): Promise<void> {
  let done = migrated.get(db.connector);
  if (!done) {
    done = db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.query(WORLD_SCHEMA_SQL);
    });
    migrated.set(db.connector, done);
    done.catch(() => migrated.delete(db.connector));
  }
  return done;
}

/** Deletes every row of one world, so a world id opened again starts empty. */
export async function resetWorld(db: PgDatabase, world: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of WORLD_TABLES) await tx.query(`DELETE FROM ${table} WHERE world = $1`, [world]);
  });
}
