import { VirtualClock } from '../core/index.js';
import { ruleLabel } from '../faults/ruleLabel.js';
import { MODEL_OPERATIONS } from '../model/api/modelOperations.js';
import type { TrialSummary } from '../runner/trial.js';
import type { Scenario } from '../scenario/scenario.js';
import { triggerText } from '../scenario/agentCrash.js';
import { CRASH_RULE } from '../stats/coverage.js';
import { BUILTIN_SERVICES, createWorld } from '../world/createWorld.js';
import type { ExplorePlan } from './crashPointArbitrary.js';
import type { PlanRuleFirings } from './exploreResult.js';

/**
 * The tools a plan aims at: those the scenario names (its script, its own faults), else every
 * tool of its services; and the routes of the scenario's model, if it serves one
 * (`model:openai.chat.completions`…), whose faults an agent meets as much as its tools'.
 */
export function toolsToAim(scenario: Scenario): string[] {
  const all = worldOf(scenario).tools.map((t) => t.name);
  const models = scenario.model ? MODEL_OPERATIONS[scenario.model.api] : [];
  const named = new Set<string>();
  const steps = [
    ...(scenario.agent.kind === 'scripted' ? scenario.agent.plan.steps : []),
    ...(scenario.model?.plan?.steps ?? []),
  ];
  for (const step of steps) {
    named.add(step.tool);
    if (step.poll) named.add(step.poll.tool);
  }
  for (const rule of scenario.faults) for (const t of [rule.match.tool ?? []].flat()) named.add(t);
  const aimed = all.filter((t) => named.has(t));
  return [...(aimed.length > 0 ? aimed : all), ...models];
}

const worldOf = (scenario: Scenario): ReturnType<typeof createWorld> =>
  createWorld(new VirtualClock(0), scenario.world, scenario.services ?? BUILTIN_SERVICES);

/** The tools a crash may follow the effect of: those `toolsToAim` names that write (a read commits no effect). */
export function writeToolsToAim(scenario: Scenario): string[] {
  const aimed = new Set(toolsToAim(scenario));
  return worldOf(scenario)
    .tools.filter((t) => t.risk !== 'read' && aimed.has(t.name))
    .map((t) => t.name);
}

/**
 * The model routes whose answers a trial streamed (the agent asked with `stream: true`): stream
 * faults can strike only those, so explore aims them there, read from the scenario's own trial.
 */
export function streamedRoutes(trial: Pick<TrialSummary, 'history'>): string[] {
  const routes = new Set<string>();
  for (const e of trial.history)
    if (e.type === 'response' && e.stream !== undefined && e.tool.startsWith('model:')) routes.add(e.tool);
  return [...routes].sort();
}

/**
 * How often each rule of `plan` fired in a trial whose plan puts it after `offset` rules, and
 * last, its crash point (rule `CRASH_RULE`, fired once or never), which counts as one of its faults.
 */
export function planFirings(plan: ExplorePlan, offset: number, trial: Pick<TrialSummary, 'stats'>): PlanRuleFirings[] {
  const byRule = new Map(trial.stats.firings);
  const rules = plan.faults.map((r, rule) => ({ rule, label: ruleLabel(r), firings: byRule.get(offset + rule) ?? 0 }));
  if (plan.crash === undefined) return rules;
  return [...rules, { rule: CRASH_RULE, label: triggerText(plan.crash), firings: byRule.get(CRASH_RULE) ?? 0 }];
}
