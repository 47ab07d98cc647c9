import { rm } from 'node:fs/promises';
import type { History } from '../../core/index.js';
import { signalGroup } from '../../world/command/ProcessTable.js';
import {
  runCommand,
  type CommandResult,
  type CommandSpec,
  type RunCommandOptions,
} from '../../world/command/runCommand.js';
import type { AgentKill } from './AgentKill.js';

/** One start of a command agent: its command, how it is run, where it reports, and the trial's history. */
export interface Start {
  readonly spec: CommandSpec;
  readonly options: RunCommandOptions;
  readonly resultFile: string;
  readonly startMs: number;
  readonly history: History;
}

/**
 * Runs the agent; when the scenario's `crash.agent` kills it (SIGKILL to its process group, no
 * SIGTERM first), starts it once more with `FAULTLINE_RESTART=1` and `FAULTLINE_RESTART_COUNT=1`,
 * the same task, working folder and served world. What the killed start wrote to
 * `FAULTLINE_RESULT` is dropped: only the last start reports.
 */
export async function startsUntilDone(
  kill: AgentKill | undefined,
  startOf: (restart: number) => Start,
): Promise<CommandResult> {
  const first = startOf(0);
  kill?.arm(first.options.clock, first.startMs);
  const processes = first.options.processes;
  // SIGKILL to the whole group at once, no SIGTERM first: a crash gives the program no chance to tidy up.
  // The agent's own group: the first started from here on (a command tool it calls starts groups of its own later).
  const ours = processes?.groups.length ?? 0;
  const killGroup = (): void => {
    const group = processes?.groups[ours];
    if (group) signalGroup(group.pgid, 'SIGKILL');
  };
  kill?.signal.addEventListener('abort', killGroup, { once: true });
  // Disarmed as the agent exits, not when its pipes close: a grandchild may hold them up to the grace
  // period longer, and an `atMs` in that window would kill, and restart, an agent that had finished.
  const disarm = (): void => kill?.disarm(first.options.clock);
  const killed = await runCommand(first.spec, { ...first.options, onExit: disarm });
  kill?.signal.removeEventListener('abort', killGroup);
  disarm();
  // Restarted only when the crash is what ended it: an agent that exited on its own keeps its result.
  if (!kill?.fired || killed.kind !== 'exited' || killed.signal !== 'SIGKILL') return killed;
  const again = startOf(1);
  await rm(again.resultFile, { force: true });
  again.history.record({ type: 'agent_restart', restart: 1 });
  return runCommand(again.spec, again.options);
}
