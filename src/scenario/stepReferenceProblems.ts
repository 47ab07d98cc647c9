import { formatPath } from '../core/zodIssues.js';
import { declaresPath } from '../faults/declaredOutput.js';
import { parsePlaceholder } from '../model/placeholders.js';
import type { ScriptPlan, Step } from '../model/script.js';
import type { World } from '../world/World.js';
import type { CheckedScenario } from './checkedScenario.js';

type Path = readonly PropertyKey[];

/**
 * What a plan's steps refer to that the world can never give, found at load rather than in
 * every trial: a claim subject's service that is not in the world (the honesty checker would find
 * no effect for it), and, for the scripted agent, a field no answer of a tool has by its declared
 * output: a `$step.path` placeholder into it (the step would throw when filled) or a poll's
 * `until.path` (the poll would never see it). A tool that declares no output is not judged.
 */
export function stepReferenceProblems(scenario: CheckedScenario, world: World): string[] {
  const out: string[] = [];
  const services = world.services.map((s) => s.name);
  const plans: { plan: ScriptPlan; at: Path }[] = [
    ...(scenario.agent.kind === 'scripted' ? [{ plan: scenario.agent.plan, at: ['agent', 'plan'] }] : []),
    ...(scenario.model?.plan ? [{ plan: scenario.model.plan, at: ['model', 'plan'] }] : []),
  ];
  for (const { plan, at } of plans) {
    plan.steps.forEach((step, i) => {
      const service = step.subject?.slice(0, step.subject.indexOf(':'));
      // `{agent}` is filled per agent; a service name is not where it goes, but nothing can be said of one that holds it.
      if (service !== undefined && !service.includes('{') && !services.includes(service))
        out.push(
          `${formatPath([...at, 'steps', i, 'subject'])}: "${step.subject}": no service "${service}" in this ` +
            `scenario's world (services: ${services.join(', ')}); expected service:businessKey`,
        );
    });
  }
  // The stand-in model for an http or command agent reads answers the agent passes back, in whatever shape it chose.
  if (scenario.agent.kind === 'scripted') out.push(...outputPathProblems(scenario.agent.plan.steps, world));
  return out;
}

function outputPathProblems(steps: readonly Step[], world: World): string[] {
  const outputs = new Map(world.tools.map((t) => [t.name, t.output]));
  const named = new Map<string, Step>();
  const out: string[] = [];
  const undeclared = (tool: string, path: string): boolean =>
    path !== '' && declaresPath(outputs.get(tool), path.split('.')) === false;
  steps.forEach((step, i) => {
    const at = ['agent', 'plan', 'steps', i];
    const refs = [
      ...placeholdersAt(step.input, [...at, 'input']),
      ...placeholdersAt(step.fixes, [...at, 'fixes']),
      ...placeholdersAt(step.ifEmpty, [...at, 'ifEmpty']),
      ...placeholdersAt(step.forEach, [...at, 'forEach']),
      ...placeholdersAt(step.poll?.input, [...at, 'poll', 'input']),
    ];
    for (const { text, path } of refs) {
      const p = parsePlaceholder(text);
      const source = p && named.get(p.step);
      // A forEach step's answer is the list of its calls' answers; `$item` is an item of an earlier answer.
      if (!p || !source || source.forEach !== undefined || !undeclared(source.tool, p.path)) continue;
      out.push(
        `${formatPath(path)}: "${text}": no answer of "${source.tool}" has the field "${p.path}" by its declared ` +
          `output, so the step could never be filled; expected a path its output declares`,
      );
    }
    if (step.poll && undeclared(step.poll.tool, step.poll.until.path))
      out.push(
        `${formatPath([...at, 'poll', 'until', 'path'])}: "${step.poll.until.path}": no answer of ` +
          `"${step.poll.tool}" has that field by its declared output, so the poll could never see it end; ` +
          `expected a path its output declares`,
      );
    if (step.name !== undefined) named.set(step.name, step);
  });
  return out;
}

/** Every placeholder string inside `value`, with where it is written. */
function placeholdersAt(value: unknown, path: Path): { text: string; path: Path }[] {
  if (typeof value === 'string') return parsePlaceholder(value) ? [{ text: value, path }] : [];
  if (Array.isArray(value)) return value.flatMap((v: unknown, i) => placeholdersAt(v, [...path, i]));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => placeholdersAt(v, [...path, k]));
  return [];
}
