import { FaultlineError, FaultlineErrorCode, type Clock } from '../../core/index.js';
import { BUILTIN_SERVICES, type BuiltinServiceName } from '../createWorld.js';
import type { Service } from '../Service.js';
import { CalendarService } from '../services/calendar.js';
import { DeployService } from '../services/deploy.js';
import { EmailService } from '../services/email.js';
import { WorldConfigSchema, type WorldConfig } from '../WorldConfig.js';
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

const isBuiltin = (name: string): name is BuiltinServiceName => (BUILTIN_SERVICES as readonly string[]).includes(name);

const builders: { readonly [K in BuiltinServiceName]: (w: PostgresWorld, c: WorldConfig) => Service } = {
  orders: (w, c) => new PgOrdersService(w.db, w.id, w.ledger, w.clock, c.orders),
  payments: (w, c) => new PgPaymentsService(w.db, w.id, w.ledger, w.clock, c.payments),
  // Not in the database: they keep their state in memory and refuse to commit effects (see PgLedger).
  email: (w, c) => new EmailService(w.clock, c.email),
  calendar: (w, c) => new CalendarService(w.clock, c.calendar),
  deploy: (w, c) => new DeployService(w.clock, c.deploy),
};

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
  services: readonly string[] | undefined,
  options: PostgresWorldOptions,
): Promise<PostgresWorld> {
  const parsed = WorldConfigSchema.safeParse(config);
  if (!parsed.success) {
    throw new FaultlineError(FaultlineErrorCode.ConfigInvalid, `invalid world config: ${parsed.error.message}`, parsed.error.issues);
  }
  const configured = BUILTIN_SERVICES.filter((name) => parsed.data[name] !== undefined);
  const names = services ?? (configured.length > 0 ? configured : BUILTIN_SERVICES);
  const db = new PgDatabase(connector, clock);
  await ensureWorldSchema(db);
  if (options.reset ?? true) await resetWorld(db, options.id);
  const world = new PostgresWorld(clock, db, options.id);
  for (const name of names) {
    if (!isBuiltin(name)) {
      throw new FaultlineError(FaultlineErrorCode.UnknownService, `no built-in service named "${name}" (known: ${BUILTIN_SERVICES.join(', ')})`);
    }
    world.add(builders[name](world, parsed.data));
  }
  return world;
}
