import type { Clock } from '../../core/index.js';
import { worldServices, type ServiceRef } from '../createWorld.js';
import type { ServiceDefinition } from '../define/defineService.js';
import type { Service } from '../Service.js';
import type { OrdersOptions } from '../services/orders.js';
import type { PaymentsOptions } from '../services/payments.js';
import type { WorldConfig } from '../WorldConfig.js';
import { PgDatabase, type PgConnector } from './PgDatabase.js';
import { PgOrdersService } from './PgOrdersService.js';
import { PgPaymentsService } from './PgPaymentsService.js';
import { PostgresWorld } from './PostgresWorld.js';
import { ensureWorldSchema, resetWorld } from './schema.js';

export interface PostgresWorldOptions {
  /** Names this world's rows; worlds opened on one id share their state. */
  readonly id: string;
  /** Delete the id's rows first, so the world starts empty (default `true`; `false` to join a world). */
  readonly reset?: boolean;
}

/** Orders and payments live in the database; every other service, built-in or declared, keeps its state in memory (see PgLedger). */
function build(w: PostgresWorld, definition: ServiceDefinition, options: unknown): Service {
  // Validated by the definition's schema first, so both backends refuse the same options alike.
  definition.instantiate(w.clock, options);
  if (definition.name === 'orders') return new PgOrdersService(w.db, w.id, w.ledger, w.clock, options as OrdersOptions);
  if (definition.name === 'payments')
    return new PgPaymentsService(w.db, w.id, w.ledger, w.clock, options as PaymentsOptions);
  return definition.instantiate(w.clock, options);
}

/**
 * `createWorld` on Postgres: the same config and service names, with orders and payments
 * (their tables, idempotency keys and the effect ledger) in the database `connector` reaches.
 * Every query is held on `clock`, so the world runs on a trial's virtual clock.
 * @throws FaultlineError as `createWorld` does, and whatever the database throws.
 */
export async function createPostgresWorld(
  connector: PgConnector,
  clock: Clock,
  config: WorldConfig,
  services: readonly ServiceRef[] | undefined,
  options: PostgresWorldOptions,
): Promise<PostgresWorld> {
  const definitions = worldServices(config, services);
  const db = new PgDatabase(connector, clock);
  await ensureWorldSchema(db);
  if (options.reset ?? true) await resetWorld(db, options.id);
  const world = new PostgresWorld(clock, db, options.id);
  for (const definition of definitions) world.add(build(world, definition, config[definition.name]));
  return world;
}
