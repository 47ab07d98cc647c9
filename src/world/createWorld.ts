import { FaultlineError, FaultlineErrorCode, type Clock } from '../core/index.js';
import { isServiceDefinition, type ServiceDefinition } from './define/defineService.js';
import { calendar } from './services/calendar.js';
import { deploy } from './services/deploy.js';
import { email } from './services/email.js';
import { jobs } from './services/jobs.js';
import { records } from './services/records.js';
import { orders } from './services/orders.js';
import { payments } from './services/payments.js';
import { World } from './World.js';
import type { WorldConfig } from './WorldConfig.js';

/** The services a world has when a scenario names none, in the order it builds them. */
export const BUILTIN_SERVICES = ['orders', 'payments', 'email', 'calendar', 'deploy'] as const;
/**
 * Built-in services a scenario names in `services` (or configures in `world`) to have them: kept
 * out of the default world, whose tool list every existing scenario's model and checkers see.
 */
export const OPT_IN_SERVICES = ['records', 'jobs'] as const;
export type BuiltinServiceName = (typeof BUILTIN_SERVICES)[number] | (typeof OPT_IN_SERVICES)[number];
/** Every service known by name: the default ones, then the opt-in ones. */
export const NAMED_SERVICES: readonly BuiltinServiceName[] = [...BUILTIN_SERVICES, ...OPT_IN_SERVICES];

/** The built-in services, declared with the same `defineService` users have. */
export const BUILTIN_SERVICE_DEFINITIONS: { readonly [K in BuiltinServiceName]: ServiceDefinition } = {
  orders,
  payments,
  email,
  calendar,
  deploy,
  records,
  jobs,
};

/** A service as a scenario names it: a built-in by name, or a definition from `defineService`. */
export type ServiceRef = string | ServiceDefinition;

export const isBuiltinService = (name: string): name is BuiltinServiceName =>
  (NAMED_SERVICES as readonly string[]).includes(name);

/**
 * The definitions `refs` name, in order.
 * @throws FaultlineError `FAULTLINE_UNKNOWN_SERVICE` for a name that is not built in, or two services of one name.
 */
export function resolveServices(refs: readonly ServiceRef[]): ServiceDefinition[] {
  const out: ServiceDefinition[] = [];
  for (const ref of refs) {
    const definition = typeof ref === 'string' && isBuiltinService(ref) ? BUILTIN_SERVICE_DEFINITIONS[ref] : ref;
    if (!isServiceDefinition(definition)) {
      const what = typeof ref === 'string' ? `"${ref}"` : 'a value that is not from defineService';
      throw new FaultlineError(
        FaultlineErrorCode.UnknownService,
        `no built-in service named ${what} (known: ${NAMED_SERVICES.join(', ')}; declare your own with defineService)`,
      );
    }
    if (out.some((d) => d.name === definition.name)) {
      throw new FaultlineError(
        FaultlineErrorCode.UnknownService,
        `two services are named "${definition.name}" in one world`,
      );
    }
    out.push(definition);
  }
  return out;
}

/** The services a world has when a scenario names none: the built-ins its `world` options name, or all of them. */
export function defaultServices(config: WorldConfig): readonly BuiltinServiceName[] {
  const configured = NAMED_SERVICES.filter((name) => config[name] !== undefined);
  return configured.length > 0 ? configured : BUILTIN_SERVICES;
}

/**
 * A fresh world: one instance of each service, its options from `config[service.name]`.
 * @throws FaultlineError `FAULTLINE_CONFIG_INVALID` for options a service refuses, or options
 *   for a service that is not in the world; `FAULTLINE_UNKNOWN_SERVICE` as `resolveServices`.
 */
export function createWorld(clock: Clock, config: WorldConfig = {}, services?: readonly ServiceRef[]): World {
  const definitions = worldServices(config, services);
  const world = new World(clock);
  for (const definition of definitions) world.add(definition.instantiate(clock, config[definition.name]));
  return world;
}

/**
 * The definitions a world of `services` (default: `defaultServices(config)`) is built from.
 * @throws FaultlineError `FAULTLINE_CONFIG_INVALID` when `config` has options for a service not among them.
 */
export function worldServices(config: WorldConfig, services: readonly ServiceRef[] | undefined): ServiceDefinition[] {
  const definitions = resolveServices(services ?? defaultServices(config));
  const stray = Object.keys(config).filter((name) => !definitions.some((d) => d.name === name));
  if (stray.length > 0) {
    // Named only for the message: every trial builds its world through here, and hardly one has a stray option.
    const names = definitions.map((d) => d.name).join(', ');
    const issues = stray.map(
      (name) => `world.${name}: options for a service that is not in this world (services: ${names})`,
    );
    throw new FaultlineError(
      FaultlineErrorCode.ConfigInvalid,
      `invalid world config:\n${issues.map((i) => `  - ${i}`).join('\n')}`,
      { issues },
    );
  }
  return definitions;
}
