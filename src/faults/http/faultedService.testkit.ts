import { History, Rng, type Clock } from '../../core/index.js';
import { createWorld } from '../../world/createWorld.js';
import type { World } from '../../world/World.js';
import type { FaultPlan } from '../plan.js';
import { HttpFaults } from './HttpFaults.js';
import type { HttpRoute } from './HttpRoute.js';
import { ordersRoutes } from './toolRoutes.js';

/**
 * One HTTP service under `plan`, as a test needs it: its routes at `baseUrl` (the orders world's
 * tools unless `routes` says otherwise), with the history and the world behind it.
 */
export function faultedService(
  clock: Clock,
  plan: FaultPlan,
  baseUrl: string,
  options: { readonly seed?: number; readonly routes?: (world: World) => readonly HttpRoute[] } = {},
): { history: History; world: World; faults: HttpFaults } {
  const history = new History(clock);
  const world = createWorld(clock, {}, ['orders']);
  const faults = new HttpFaults({
    services: [{ baseUrl, routes: (options.routes ?? ordersRoutes)(world) }],
    plan,
    clock,
    rng: new Rng(options.seed ?? 1),
    history,
    world,
  });
  return { history, world, faults };
}
