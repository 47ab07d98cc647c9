import { isFaultlineError, VirtualClock } from '../core/index.js';
import { formatPath } from '../core/zodIssues.js';
import { BUILTIN_SERVICES, createWorld, resolveServices } from '../world/createWorld.js';
import type { World } from '../world/World.js';
import { agentKindProblems } from './agentKindProblems.js';
import { agentCrashProblems } from './agentCrashProblems.js';
import { healProblems } from './healProblems.js';
import { lieProblems } from './lieProblems.js';
import { modelFaultProblems } from './modelFaultProblems.js';
import { networkProblems } from './networkProblems.js';
import type { CheckedScenario } from './checkedScenario.js';
import { stepInputProblems } from './stepInputProblems.js';
import { stepReferenceProblems } from './stepReferenceProblems.js';
import { toolNameProblems } from './toolNameProblems.js';

/**
 * What the schema cannot check: options a service refuses, tool names (a typo in a plan step or
 * a fault rule would otherwise never match and pass silently), and what the agent's kind, the
 * lies, the heal and the network rule out. One line per problem, in the order of the message.
 */
export function worldProblems(scenario: CheckedScenario): string[] {
  const world = buildWorld(scenario);
  if (Array.isArray(world)) return world;
  const tools = toolNameProblems(scenario, world);
  const services = scenario.services ?? BUILTIN_SERVICES;
  // A route that reshapes a tool's result answers what its declared output does not describe.
  const reshaped = new Set(
    resolveServices(services).flatMap(
      (d) => d.http?.routes.filter((r) => typeof r.output === 'function').map((r) => r.tool) ?? [],
    ),
  );
  return [
    ...toolOwnerProblems(world),
    ...goalStateProblems(scenario, world),
    ...tools.inPlans,
    ...stepInputProblems(scenario, world),
    ...stepReferenceProblems(scenario, world),
    ...agentKindProblems(scenario),
    ...agentCrashProblems(scenario, world),
    ...tools.inRules,
    ...lieProblems(scenario.faults, world, reshaped),
    ...modelFaultProblems(scenario),
    ...healProblems(scenario),
    ...(scenario.network ? networkProblems(scenario.network, world, services, scenario.agent.kind) : []),
  ];
}

/** The scenario's world, or the lines of the service options it refused. */
function buildWorld(scenario: CheckedScenario): World | string[] {
  try {
    return createWorld(new VirtualClock(0), scenario.world, scenario.services ?? BUILTIN_SERVICES);
  } catch (error) {
    if (!isFaultlineError(error)) throw error;
    const issues = (error.details as { issues?: unknown } | undefined)?.issues;
    return Array.isArray(issues) && issues.every((i) => typeof i === 'string') ? (issues as string[]) : [error.message];
  }
}

/** A tool is found by name alone (plans, fault rules, the model's calls): two services cannot share one. */
function toolOwnerProblems(world: World): string[] {
  const out: string[] = [];
  const owner = new Map<string, string>();
  for (const service of world.services) {
    for (const tool of service.tools) {
      const first = owner.get(tool.name);
      if (first !== undefined)
        out.push(
          `services: the tool "${tool.name}" is declared by both "${first}" and "${service.name}"; expected each tool name once in a world`,
        );
      else owner.set(tool.name, service.name);
    }
  }
  return out;
}

/** `goal.state` is keyed by service name: a name the world lacks would be judged against nothing. */
function goalStateProblems(scenario: CheckedScenario, world: World): string[] {
  const serviceNames = world.services.map((x) => x.name);
  return Object.keys(scenario.goal.state ?? {})
    .filter((name) => !serviceNames.includes(name))
    .map(
      (name) =>
        `${formatPath(['goal', 'state', name])}: no service "${name}" in this scenario's world (services: ${serviceNames.join(', ')})`,
    );
}
