import { formatPath } from '../core/zodIssues.js';
import { MODEL_OPERATIONS } from '../model/api/modelOperations.js';
import { QUERY_OPERATION_STATUS } from '../runtime/queryOperationStatusTool.js';
import type { World } from '../world/World.js';
import type { CheckedScenario } from './checkedScenario.js';

/**
 * Tool names a scenario writes down, checked against its world: a typo in a plan step or a fault
 * rule would otherwise never match and pass silently. Two lists, so the caller keeps the order of
 * the message: the tools plan steps call, and the tools fault rules and the tools' clients name.
 */
export function toolNameProblems(scenario: CheckedScenario, world: World): { inPlans: string[]; inRules: string[] } {
  const known = new Set([...world.tools.map((t) => t.name), QUERY_OPERATION_STATUS]);
  const hint = `no such tool in this scenario's services (known: ${[...known].join(', ')})`;
  const check = (out: string[], name: string, path: PropertyKey[]): void => {
    if (!known.has(name)) out.push(`${formatPath(path)}: "${name}": ${hint}`);
  };
  // A fault rule may also aim at the routes of the model the scenario serves.
  const models = scenario.model ? MODEL_OPERATIONS[scenario.model.api] : [];
  const checkRule = (out: string[], name: string, path: PropertyKey[]): void => {
    if (models.includes(name) || known.has(name)) return;
    const api = (Object.keys(MODEL_OPERATIONS) as (keyof typeof MODEL_OPERATIONS)[]).find((a) =>
      MODEL_OPERATIONS[a].includes(name),
    );
    if (api === undefined) return check(out, name, path);
    const served = scenario.model
      ? `its model speaks ${scenario.model.api} (${models.join(', ')})`
      : 'it names no model (model: { api: ' + api + ', plan: … })';
    out.push(
      `${formatPath(path)}: "${name}": a route of the ${api} model API, which this scenario does not serve: ${served}`,
    );
  };
  // The scripted agent's and the stand-in model's steps, and their polls.
  const inPlans: string[] = [];
  const plans = [
    ...(scenario.agent.kind === 'scripted' ? [{ steps: scenario.agent.plan.steps, at: ['agent', 'plan'] }] : []),
    ...(scenario.model?.plan ? [{ steps: scenario.model.plan.steps, at: ['model', 'plan'] }] : []),
  ];
  for (const { steps, at } of plans) {
    steps.forEach((step, i) => {
      check(inPlans, step.tool, [...at, 'steps', i, 'tool']);
      if (step.poll) check(inPlans, step.poll.tool, [...at, 'steps', i, 'poll', 'tool']);
    });
  }
  const inRules: string[] = [];
  scenario.faults.forEach((rule, i) => {
    const tools = rule.match.tool;
    if (tools === undefined) return;
    if (typeof tools === 'string') checkRule(inRules, tools, ['faults', i, 'match', 'tool']);
    else tools.forEach((t, j) => checkRule(inRules, t, ['faults', i, 'match', 'tool', j]));
  });
  scenario.client?.tools?.forEach((t, i) => check(inRules, t, ['client', 'tools', i]));
  return { inPlans, inRules };
}
