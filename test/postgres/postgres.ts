/**
 * Shared by the database tests: whether Postgres can be had, and one per test file.
 * Under CI (or with FAULTLINE_REQUIRE_DOCKER=1) nothing is skipped: a missing daemon makes
 * `beforeAll` throw and every test of the file fail. Otherwise a machine with neither Docker
 * nor DATABASE_URL skips these files and says in one line what to install (../setup/prerequisites.ts).
 */
import type { Pool, PoolClient } from 'pg';
import { afterAll, beforeAll } from 'vitest';
import pg from 'pg';
import { connectPool, startPostgres, type StartedPostgres } from '../../src/public/testcontainers.js';
import { DOCKER, missingLine, required, skipWithout } from '../setup/prerequisites.js';

// The reaper's image cannot be pulled here: containers are stopped by afterAll instead.
process.env['TESTCONTAINERS_RYUK_DISABLED'] ??= 'true';
// Inside a container with a bridgeless daemon, testcontainers looks for the bridge's gateway
// and gives up; with host networking the database is on loopback anyway.
process.env['TESTCONTAINERS_HOST_OVERRIDE'] ??= '127.0.0.1';

async function unavailableBecause(): Promise<string | undefined> {
  if (process.env['DATABASE_URL']) return undefined;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return undefined;
  } catch (error) {
    return `no Docker daemon answers and DATABASE_URL is not set (${error instanceof Error ? error.message : String(error)})`;
  }
}

const missing = required(DOCKER) ? undefined : await unavailableBecause();
/** Why this file's tests are skipped (said in one line); never set under CI or FAULTLINE_REQUIRE_DOCKER=1. */
export const skipReason: string | undefined = skipWithout(DOCKER, missing) ? missing : undefined;

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
      failure = new Error(
        missingLine(DOCKER, `no Postgres could be started (${error instanceof Error ? error.message : String(error)})`),
        { cause: error },
      );
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
