import { statSync } from 'node:fs';
import type { CheckedScenario } from './checkedScenario.js';

/**
 * What the agent's kind rules out: many copies of an agent that runs alone, a command's missing
 * folder, and the `http` and `model` blocks on an agent that makes no HTTP call.
 */
export function agentKindProblems(scenario: CheckedScenario): string[] {
  const out: string[] = [];
  const kind = scenario.agent.kind;
  if (scenario.agents > 1 && kind === 'http') {
    out.push(
      `agents: an "http" agent runs alone (its code shares one set of interceptors); agents must be 1, got ${scenario.agents}`,
    );
  }
  if (scenario.agents > 1 && kind === 'command') {
    out.push(
      `agents: a "command" agent runs alone (one program per trial against its served world); agents must be 1, got ${scenario.agents}`,
    );
  }
  if (scenario.agent.kind === 'command' && scenario.agent.cwd !== undefined) {
    // Checked here, not when the trial spawns: a missing folder would end every trial as `spawn … ENOENT`.
    const what = folderKind(scenario.agent.cwd);
    if (what !== 'folder')
      out.push(
        `agent.cwd: "${scenario.agent.cwd}": ${what === 'missing' ? 'no such folder' : 'not a folder'}; ` +
          `expected the folder the agent command starts in (from the scenario file's folder)`,
      );
  }
  // How an http agent's calls are intercepted (and a command agent's served world answers what it does not know): a
  // scripted or function agent makes no HTTP call.
  if (scenario.http && kind !== 'http' && kind !== 'command')
    out.push(
      `http: sets how an "http" or "command" agent's HTTP calls are met (adapter, unhandled requests); ` +
        `agent.kind is "${kind}", which makes none: remove it, or use such an agent`,
    );
  if (scenario.model && kind !== 'http' && kind !== 'command')
    out.push(`model: a model endpoint serves an "http" or "command" agent's SDK; agent.kind is "${kind}"`);
  return out;
}

function folderKind(path: string): 'folder' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'other';
  } catch {
    return 'missing';
  }
}
