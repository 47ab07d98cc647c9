import { formatPath } from '../core/zodIssues.js';
import type { Network } from '../faults/network.js';
import { serviceHttp } from '../faults/http/serviceRoutes.js';
import { resolveServices, type ServiceRef } from '../world/createWorld.js';
import type { World } from '../world/World.js';

/**
 * What the schema cannot check in a scenario's `network`: that every service, tool and route it
 * names is in the scenario (a typo would otherwise leave a leg instantaneous, silently).
 */
export function networkProblems(
  network: Network,
  world: World,
  refs: readonly ServiceRef[],
  agentKind: string,
): string[] {
  const out: string[] = [];
  const services = world.services.map((s) => s.name);
  const tools = world.tools.map((t) => t.name);
  for (const name of Object.keys(network.tools ?? {})) {
    if (!tools.includes(name))
      out.push(
        `${formatPath(['network', 'tools', name])}: "${name}": no such tool in this scenario's services (known: ${tools.join(', ')})`,
      );
  }
  const routed = Object.entries(network.services ?? {}).filter(([name, level]) => {
    if (services.includes(name)) return level.routes !== undefined;
    out.push(
      `${formatPath(['network', 'services', name])}: "${name}": no such service in this scenario (services: ${services.join(', ')})`,
    );
    return false;
  });
  if (routed.length === 0) return out;
  if (agentKind !== 'http' && agentKind !== 'command') {
    for (const [name] of routed)
      out.push(
        `${formatPath(['network', 'services', name, 'routes'])}: per-route latency applies to services ` +
          `served over HTTP to an "http" or "command" agent; agent.kind is "${agentKind}" (set latency per tool instead)`,
      );
    return out;
  }
  const served = serviceHttp(world, resolveServices(refs));
  for (const [name, level] of routed) {
    const routes = served.find((s) => s.name === name)?.routes.map((r) => `${r.method} ${r.path}`) ?? [];
    for (const key of Object.keys(level.routes ?? {})) {
      if (!routes.includes(key))
        out.push(
          `${formatPath(['network', 'services', name, 'routes', key])}: no such route of "${name}" (routes: ${routes.join(', ')})`,
        );
    }
  }
  return out;
}
