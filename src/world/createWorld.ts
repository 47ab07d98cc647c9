import { FaultlineError, FaultlineErrorCode, type Clock } from '../core/index.js';
import type { Service } from './Service.js';
import { CalendarService } from './services/calendar.js';
import { DeployService } from './services/deploy.js';
import { EmailService } from './services/email.js';
import { OrdersService } from './services/orders.js';
import { PaymentsService } from './services/payments.js';
import { World } from './World.js';
import { WorldConfigSchema, type WorldConfig } from './WorldConfig.js';

/** The services `createWorld` can build, in the order it builds them. */
export const BUILTIN_SERVICES = ['orders', 'payments', 'email', 'calendar', 'deploy'] as const;
export type BuiltinServiceName = (typeof BUILTIN_SERVICES)[number];

const isBuiltin = (name: string): name is BuiltinServiceName => (BUILTIN_SERVICES as readonly string[]).includes(name);

const builders: { readonly [K in BuiltinServiceName]: (clock: Clock, config: WorldConfig) => Service } = {
  orders: (clock, c) => new OrdersService(clock, c.orders),
  payments: (clock, c) => new PaymentsService(clock, c.payments),
  email: (clock, c) => new EmailService(clock, c.email),
  calendar: (clock, c) => new CalendarService(clock, c.calendar),
  deploy: (clock, c) => new DeployService(clock, c.deploy),
};

/**
 * A fresh world of built-in services. `services` names which to build; by default those
 * present in `config`, or all of them when `config` names none.
 * @throws FaultlineError `FAULTLINE_CONFIG_INVALID` for a config the schema refuses,
 *   `FAULTLINE_UNKNOWN_SERVICE` for a name that is not built in.
 */
export function createWorld(clock: Clock, config: WorldConfig = {}, services?: readonly string[]): World {
  const parsed = WorldConfigSchema.safeParse(config);
  if (!parsed.success) {
    throw new FaultlineError(FaultlineErrorCode.ConfigInvalid, `invalid world config: ${parsed.error.message}`, parsed.error.issues);
  }
  const configured = BUILTIN_SERVICES.filter((name) => parsed.data[name] !== undefined);
  const names = services ?? (configured.length > 0 ? configured : BUILTIN_SERVICES);
  const world = new World(clock);
  for (const name of names) {
    if (!isBuiltin(name)) {
      throw new FaultlineError(
        FaultlineErrorCode.UnknownService,
        `no built-in service named "${name}" (known: ${BUILTIN_SERVICES.join(', ')})`,
      );
    }
    world.add(builders[name](clock, parsed.data));
  }
  return world;
}
