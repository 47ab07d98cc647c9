import { importFresh } from './loadFile.js';

/** Where a loaded agent function came from: its module file, and how to find the agent in that module's default export. */
interface AgentSource {
  readonly path: string;
  readonly pick: (exported: unknown) => unknown;
}

const sources = new WeakMap<object, AgentSource>();

/** Notes that `fn` is the agent `pick` finds in the default export of the module at `path` (kept when already known). */
export function rememberAgentSource(fn: unknown, path: string, pick: AgentSource['pick']): void {
  if (typeof fn === 'function' && !sources.has(fn)) sources.set(fn, { path, pick });
}

/** The agent of a scenario file's default export: `agent.fn` (a function agent) or `agent.run` (an http agent). */
export const scenarioFileAgent = (exported: unknown): unknown => {
  const agent = (exported as { agent?: { fn?: unknown; run?: unknown } } | undefined)?.agent;
  return agent?.fn ?? agent?.run;
};

/**
 * The trials whose agent was imported afresh in this process, and how many times: a trial run
 * again in it (a watch's rerun) needs a module instance of its own.
 */
const imported = new Map<string, number>();

/** Which trial a fresh module instance is for: what its URL's query is made of. */
export interface RestartOf {
  readonly scenario: string;
  readonly config: string;
  readonly trialIndex: number;
}

/**
 * The query of the fresh instance's URL: the trial's cell and index and the restart's number, so
 * that it is the same on any number of workers (an agent's stack shows it), and the times this
 * trial's agent was imported afresh in this process before, so that a rerun gets a new instance.
 */
function restartQuery({ scenario, config, trialIndex }: RestartOf, restart: number): string {
  const trial = `${encodeURIComponent(scenario)}.${encodeURIComponent(config)}.${trialIndex}.${restart}`;
  const before = imported.get(trial) ?? 0;
  imported.set(trial, before + 1);
  return `faultline-restart=${trial}${before === 0 ? '' : `~${before + 1}`}`;
}

/**
 * The same agent from a fresh instance of its module, for its start after `crash.agent`: the
 * module is imported again under a query of its own, so what it kept at module level is gone,
 * as a restarted process's memory is. `undefined` when the agent was not loaded from a file
 * (a scenario built in code) or the fresh module no longer exports one: it then starts again as
 * the same function. When the import throws, an agent that throws that error when started: the
 * restart then fails as the agent's, on any number of workers. Each fresh instance stays in Node's module cache until the process ends.
 */
export async function freshAgent<F>(fn: F, trial: RestartOf): Promise<F | undefined> {
  const source = typeof fn === 'function' ? sources.get(fn) : undefined;
  if (!source) return undefined;
  let again: unknown;
  try {
    again = source.pick(await importFresh(source.path, restartQuery(trial, 1)));
  } catch (error) {
    // The agent's own code failed to load again: its restart fails with that error, as a restart that throws does.
    return (async () => {
      throw error;
    }) as F;
  }
  return typeof again === 'function' ? (again as F) : undefined;
}
