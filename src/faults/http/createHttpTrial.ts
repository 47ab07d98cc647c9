import { FaultlineError, FaultlineErrorCode, History, Rng, VirtualClock } from '../../core/index.js';
import { formatIssues } from '../../core/zodIssues.js';
import { createWorld, type ServiceRef } from '../../world/createWorld.js';
import type { WorldConfig } from '../../world/WorldConfig.js';
import type { World } from '../../world/World.js';
import type { FaultPlan } from '../plan.js';
import { NetworkLatency, NetworkSchema, type Network } from '../network.js';
import { HttpFaults, type HttpService } from './HttpFaults.js';
import { toolRoutes } from './toolRoutes.js';

export interface HttpTrialOptions {
  readonly plan: FaultPlan;
  /** Seeds the fault plan's `probability` draws and, through `clientRandom`, an SDK's jitter (default 1). */
  readonly seed?: number;
  /** Virtual ms since the epoch when the trial starts (default 2025-01-01T00:00:00Z). */
  readonly startMs?: number;
  /** How the built-in services behave (idempotency, processing time…), as in a scenario's `world`. */
  readonly world?: WorldConfig;
  /** Which services to build: built-in names or your own definitions (default: the built-ins `world` names, or all). */
  readonly serviceNames?: readonly ServiceRef[];
  /** The HTTP services over the world (default: every tool at `https://tools.faultline.test/tools/{name}`). */
  readonly services?: (world: World) => readonly HttpService[];
  /** Network latency per leg, as a scenario's `network` says it (a service level needs the service's `name`). */
  readonly network?: Network;
}

/** A fresh HTTP trial: virtual clock, history, seeded rng, world and the fault engine over it. */
export interface HttpTrial {
  readonly clock: VirtualClock;
  readonly history: History;
  readonly rng: Rng;
  readonly world: World;
  readonly faults: HttpFaults;
  /** For `runWithMsw(…, { timers: { random: trial.clientRandom } })`: the client's `Math.random`, seeded. */
  readonly clientRandom: Rng;
}

export const DEFAULT_TRIAL_START = Date.parse('2025-01-01T00:00:00Z');

/**
 * Everything one HTTP trial needs, built from a plan and a seed.
 *
 * @example
 * const trial = createHttpTrial({ plan, services: (world) => [{ baseUrl: 'https://api.shop.test', routes: ordersRoutes(world) }] });
 * const run = await runWithMsw(trial.faults, trial.clock, () => createOrder(order));
 */
export function createHttpTrial(options: HttpTrialOptions): HttpTrial {
  const clock = new VirtualClock(options.startMs ?? DEFAULT_TRIAL_START);
  const history = new History(clock);
  const rng = new Rng(options.seed ?? 1);
  const world = createWorld(clock, options.world ?? {}, options.serviceNames);
  const services = options.services?.(world) ?? [
    { baseUrl: 'https://tools.faultline.test', routes: toolRoutes(world) },
  ];
  const network = options.network && new NetworkLatency(parsedNetwork(options.network), rng.fork('network'));
  const faults = new HttpFaults({
    services,
    plan: options.plan,
    clock,
    rng: rng.fork('http'),
    history,
    world,
    ...(network && { network }),
  });
  return { clock, history, rng, world, faults, clientRandom: rng.fork('client') };
}

function parsedNetwork(input: Network): Network {
  const parsed = NetworkSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = formatIssues(parsed.error.issues, ['network']);
  throw new FaultlineError(
    FaultlineErrorCode.ConfigInvalid,
    `invalid network:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
    { issues: lines },
  );
}
