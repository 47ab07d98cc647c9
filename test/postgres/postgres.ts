/**
 * Shared by the database tests: whether Postgres can be had, and one per test file.
 * With FAULTLINE_REQUIRE_DOCKER=1 (CI sets it) nothing is skipped: a missing daemon makes
 * `beforeAll` throw and every test of the file fail. Without it, a machine with neither
 * Docker nor DATABASE_URL skips these files and says why.
 */
import type { Pool, PoolClient } from 'pg';
import { afterAll, beforeAll } from 'vitest';
import pg from 'pg';
import { connectPool, startPostgres, type StartedPostgres } from '../../src/public/testcontainers.js';

// The reaper's image cannot be pulled here: containers are stopped by afterAll instead.
process.env['TESTCONTAINERS_RYUK_DISABLED'] ??= 'true';
// Inside a container with a bridgeless daemon, testcontainers looks for the bridge's gateway
// and gives up; with host networking the database is on loopback anyway.
process.env['TESTCONTAINERS_HOST_OVERRIDE'] ??= '127.0.0.1';

export const REQUIRE_DOCKER = process.env['FAULTLINE_REQUIRE_DOCKER'] === '1';

async function unavailableBecause(): Promise<string | undefined> {
  if (process.env['DATABASE_URL']) return undefined;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return undefined;
  } catch (error) {
    return `no Docker daemon and no DATABASE_URL (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Why this file's tests are skipped; never set when FAULTLINE_REQUIRE_DOCKER=1. */
export const skipReason: string | undefined = REQUIRE_DOCKER ? undefined : await unavailableBecause();
if (skipReason !== undefined) {
  console.warn(`[faultline] skipping the Postgres tests: ${skipReason}. Set FAULTLINE_REQUIRE_DOCKER=1 to fail instead.`);
}

export interface TestDatabase {
  readonly pg: StartedPostgres;
  readonly pool: Pool;
  stop(): Promise<void>;
}

/** One Postgres for one test file (call in `beforeAll`, `stop` in `afterAll`). */
export async function startTestDatabase(poolSize = 10): Promise<TestDatabase> {
  // Only a hang's bound (the API's default is 60 s): a container may start slowly on a loaded machine.
  const started = await startPostgres({ startupTimeoutMs: 300_000 });
  const pool = await connectPool(started.url, poolSize);
  return {
    pg: started,
    pool,
    stop: async () => {
      await pool.end();
      await started.stop();
    },
  };
}

/** A connector that opens a new connection for every request and closes it after: many separate clients. */
export function clientPerRequest(url: string): { connect(): Promise<PoolClient>; readonly opened: number } {
  let opened = 0;
  return {
    get opened() {
      return opened;
    },
    async connect() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      opened++;
      return Object.assign(client, {
        release: () => {
          void client.end();
        },
      }) as unknown as PoolClient;
    },
  };
}

/**
 * Registers this file's database: started in `beforeAll`, stopped in `afterAll`. A database
 * that cannot be had fails every test that asks for it, each with the reason.
 */
export function useTestDatabase(poolSize = 10): () => TestDatabase {
  let db: TestDatabase | undefined;
  let failure: unknown = new Error('the database was not started');
  beforeAll(async () => {
    try {
      db = await startTestDatabase(poolSize);
    } catch (error) {
      failure = error;
    }
  });
  afterAll(async () => {
    await db?.stop();
  });
  return () => {
    if (!db) throw failure;
    return db;
  };
}
