import { formatPath } from '../core/zodIssues.js';
import type { World } from '../world/World.js';
import { canCrashAgent } from './agentCrash.js';
import type { CheckedScenario } from './checkedScenario.js';

/** What the schema cannot check: the agent kinds that can be crashed, and the tool named. */
export function agentCrashProblems(scenario: CheckedScenario, world: World): string[] {
  const crash = scenario.crash?.agent;
  if (!crash) return [];
  const out: string[] = [];
  const kind = scenario.agent.kind;
  // A scripted agent runs on the reference runtime, whose own crash is a trial option.
  if (!canCrashAgent(kind, 1))
    out.push(
      `crash.agent: crashes and restarts your own agent ("command", "function" or "http"); agent.kind is "${kind}" ` +
        `(a scripted agent on the reference runtime is crashed by the trial option crash: { afterEffectOf })`,
    );
  // One agent dies and starts again; which of a crowd's would is not built.
  else if (kind !== 'command' && scenario.agents > 1)
    out.push(
      `crash.agent: crashes one ${kind} agent; agents is ${scenario.agents} (expected 1: crashing one of many is not built)`,
    );
  if (crash.afterEffectOf !== undefined) {
    const known = world.tools.map((t) => t.name);
    const tool = world.tools.find((t) => t.name === crash.afterEffectOf);
    if (!tool)
      out.push(
        `${formatPath(['crash', 'agent', 'afterEffectOf'])}: "${crash.afterEffectOf}": no such tool in this ` +
          `scenario's services (known: ${known.join(', ')})`,
      );
    // A read commits no effect: the crash would never fire, and the agent would pass uncrashed.
    else if (tool.risk === 'read')
      out.push(
        `${formatPath(['crash', 'agent', 'afterEffectOf'])}: "${crash.afterEffectOf}" is declared risk: read and ` +
          `commits no effect, so the crash would never fire; expected a tool that writes ` +
          `(${
            world.tools
              .filter((t) => t.risk !== 'read')
              .map((t) => t.name)
              .join(', ') || 'none here'
          })`,
      );
  }
  return out;
}
