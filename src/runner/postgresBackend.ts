import { PostgresOperationStore } from '../runtime/idempotency/PostgresOperationStore.js';
import { createPostgresWorld } from '../world/postgres/createPostgresWorld.js';
import type { PgConnector } from '../world/postgres/PgDatabase.js';
import { memoryBackend, type TrialBackend } from './backend.js';

export interface PostgresBackendOptions {
  /** Where the world's orders, payments and ledger live (default `postgres`). */
  readonly world?: 'postgres' | 'memory';
  /** Where operation records live (default `postgres`: durable across an agent process's crash). */
  readonly records?: 'postgres' | 'memory';
  /** Prefixes world ids and record namespaces, so runs sharing one database never meet (default `faultline`). */
  readonly prefix?: string;
}

/**
 * A trial backend on a Postgres database (`pg.Pool` or any connector). Each trial gets its
 * own world id and record namespace, emptied when the trial opens them, so a re-run of the
 * same trial starts from the same empty state.
 */
export function postgresBackend(connector: PgConnector, options: PostgresBackendOptions = {}): TrialBackend {
  const { world = 'postgres', records = 'postgres', prefix = 'faultline' } = options;
  const id = (trial: string): string => `${prefix}:${trial}`;
  return {
    name: `${world === 'postgres' ? 'postgres' : 'memory'}-world+${records === 'postgres' ? 'postgres' : 'memory'}-records`,
    createWorld:
      world === 'postgres'
        ? (clock, config, services, trial) => createPostgresWorld(connector, clock, config, services, { id: id(trial) })
        : memoryBackend.createWorld,
    ...(records === 'postgres' && {
      durableStore: (clock, trial) =>
        PostgresOperationStore.open(connector, { namespace: id(trial), clock, reset: true }),
    }),
  };
}
