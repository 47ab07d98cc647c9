/**
 * `faultline/testcontainers`: a real Postgres for the world and the operation records.
 * `startPostgres` uses `DATABASE_URL` when it is set, else starts a container with
 * testcontainers (on a normal Docker host, `PostgreSqlContainer` on the default bridge; on a
 * daemon without a bridge network, a local image on the host network, on a free port).
 * Neither there: a `FaultlineError` with code `FAULTLINE_POSTGRES_UNAVAILABLE`.
 * `pg` and `testcontainers` are loaded only when needed, so the `DATABASE_URL` path needs
 * no Docker library at all.
 */
import { createServer } from 'node:net';
import type { Pool } from 'pg';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';

export { postgresBackend, type PostgresBackendOptions } from '../runner/postgresBackend.js';
export { memoryBackend, type TrialBackend } from '../runner/backend.js';
export type { CrashPlan } from '../runner/crash.js';
export {
  PostgresOperationStore,
  type OperationStoreConnector,
  type PostgresOperationStoreOptions,
} from '../runtime/idempotency/PostgresOperationStore.js';
export {
  createPostgresWorld,
  ensureWorldSchema,
  PgDatabase,
  PgIdempotencyTable,
  PgOrdersService,
  PgPaymentsService,
  PostgresWorld,
  resetWorld,
  type Claim,
  type PgConnector,
  type PgQueryable,
  type PostgresWorldOptions,
} from '../world/postgres/index.js';

/** The image a daemon without a bridge network runs: built locally by `scripts/postgres-image.sh`. */
export const LOCAL_POSTGRES_IMAGE = 'faultline/postgres:15';
/** The image `PostgreSqlContainer` pulls on a normal Docker host. */
export const DEFAULT_POSTGRES_IMAGE = 'postgres:16-alpine';

export interface StartPostgresOptions {
  /** Used instead of a container when set (default: `process.env.DATABASE_URL`). */
  readonly databaseUrl?: string | undefined;
  /**
   * `bridge`: `PostgreSqlContainer` with a mapped port; `host`: host networking on a free
   * port (for daemons started with `--bridge=none`); `auto` (default): `host` when the daemon
   * has no `bridge` network.
   */
  readonly network?: 'auto' | 'bridge' | 'host';
  /** Default: `FAULTLINE_POSTGRES_IMAGE`, else `faultline/postgres:15` on host networking, `postgres:16-alpine` on a bridge. */
  readonly image?: string;
  /** How long the database may take to accept connections (default 60 s). */
  readonly startupTimeoutMs?: number;
}

/** A running Postgres, however it was found. */
export interface StartedPostgres {
  /** A connection string for `pg`. */
  readonly url: string;
  readonly source: 'DATABASE_URL' | 'testcontainers';
  /** Stops and removes the container; nothing for `DATABASE_URL`. */
  stop(): Promise<void>;
}

/**
 * Finds or starts a Postgres.
 * @throws FaultlineError `FAULTLINE_POSTGRES_UNAVAILABLE` with no `DATABASE_URL`, no Docker
 *   daemon (or no testcontainers package), or a container that did not come up.
 * @example
 * const pg = await startPostgres();
 * const pool = await connectPool(pg.url);
 * const result = await runTrial({ scenario, config, runSeed: 1, trialIndex: 0, backend: postgresBackend(pool) });
 * await pool.end(); await pg.stop();
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<StartedPostgres> {
  const url = 'databaseUrl' in options ? options.databaseUrl : process.env['DATABASE_URL'];
  if (url) return { url, source: 'DATABASE_URL', stop: () => Promise.resolve() };

  const tc = await load(
    () => import('testcontainers'),
    'the testcontainers package is not installed (npm i -D testcontainers@12.0.1)',
  );
  let client: Awaited<ReturnType<typeof tc.getContainerRuntimeClient>>;
  try {
    client = await tc.getContainerRuntimeClient();
  } catch (error) {
    const hint =
      /network bridge not found/i.test(String((error as { cause?: unknown }).cause ?? '')) ||
      /bridge/i.test(messageOf(error))
        ? '; a daemon without a bridge network needs TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1'
        : '';
    throw unavailable(`no Docker daemon answers (${messageOf(error)}${hint})`, error);
  }
  const network =
    options.network === 'bridge' || options.network === 'host'
      ? options.network
      : (await hasBridge(client))
        ? 'bridge'
        : 'host';
  const timeout = options.startupTimeoutMs ?? 60_000;
  const envImage = process.env['FAULTLINE_POSTGRES_IMAGE'];
  try {
    if (network === 'bridge') {
      const { PostgreSqlContainer } = await load(
        () => import('@testcontainers/postgresql'),
        'the @testcontainers/postgresql package is not installed',
      );
      const started = await new PostgreSqlContainer(options.image ?? envImage ?? DEFAULT_POSTGRES_IMAGE)
        .withStartupTimeout(timeout)
        .start();
      return {
        url: started.getConnectionUri(),
        source: 'testcontainers',
        stop: async () => void (await started.stop()),
      };
    }
    // Host networking: no port mapping to wait for, so postgres listens on a free loopback
    // port of its own and readiness is asked of pg_isready inside the container.
    const port = await freePort();
    const started = await new tc.GenericContainer(options.image ?? envImage ?? LOCAL_POSTGRES_IMAGE)
      .withNetworkMode('host')
      .withEnvironment({ POSTGRES_USER: 'postgres', POSTGRES_PASSWORD: 'postgres', POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withCommand([
        'postgres',
        '-c',
        `port=${port}`,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=300',
        '-c',
        'fsync=off',
      ])
      .withWaitStrategy(tc.Wait.forSuccessfulCommand(`pg_isready -h 127.0.0.1 -p ${port} -U postgres`))
      .withStartupTimeout(timeout)
      .start();
    return {
      url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
      source: 'testcontainers',
      stop: async () => void (await started.stop()),
    };
  } catch (error) {
    if (error instanceof FaultlineError) throw error;
    throw unavailable(`the Postgres container did not start on the ${network} network (${messageOf(error)})`, error);
  }
}

/** A `pg.Pool` on `url` (loads `pg` on demand). */
export async function connectPool(url: string, max = 10): Promise<Pool> {
  const pg = await load(() => import('pg'), 'the pg package is not installed (npm i pg@8.23.1)');
  return new pg.default.Pool({ connectionString: url, max });
}

async function hasBridge(client: {
  network: { getById(id: string): { inspect(): Promise<unknown> } };
}): Promise<boolean> {
  try {
    await client.network.getById('bridge').inspect();
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

async function load<T>(importer: () => Promise<T>, missing: string): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    throw unavailable(missing, error);
  }
}

function unavailable(why: string, cause: unknown): FaultlineError {
  return new FaultlineError(
    FaultlineErrorCode.PostgresUnavailable,
    `no Postgres to run against: DATABASE_URL is not set and ${why}. Set DATABASE_URL=postgres://user:password@host:port/db, ` +
      `or start a Docker daemon.`,
    { cause: messageOf(cause) },
  );
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
