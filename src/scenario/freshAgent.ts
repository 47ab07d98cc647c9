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

let instances = 0;

/**
 * The same agent from a fresh instance of its module, for its start after `crash.agent`: the
 * module is imported again under a query of its own, so what it kept at module level is gone,
 * as a restarted process's memory is. `undefined` when the agent was not loaded from a file
 * (a scenario built in code) or the fresh module no longer exports one: it then starts again as
 * the same function. When the import throws, an agent that throws that error when started: the
 * restart then fails as the agent's, on any number of workers. Each fresh instance stays in Node's module cache until the process ends.
 */
export async function freshAgent<F>(fn: F): Promise<F | undefined> {
  const source = typeof fn === 'function' ? sources.get(fn) : undefined;
  if (!source) return undefined;
  let again: unknown;
  try {
    again = source.pick(await importFresh(source.path, `faultline-restart=${++instances}`));
  } catch (error) {
    // The agent's own code failed to load again: its restart fails with that error, as a restart that throws does.
    return (async () => {
      throw error;
    }) as F;
  }
  return typeof again === 'function' ? (again as F) : undefined;
}
