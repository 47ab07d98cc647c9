import { dirname, resolve } from 'node:path';
import { FaultlineError, FaultlineErrorCode, isFaultlineError } from '../core/index.js';
import { loadFile } from './loadFile.js';

/**
 * A scenario file's value with an `http` agent's `module` replaced by the function it exports
 * (`run`), resolved from the scenario file's folder.
 * @throws FaultlineError naming the scenario file and `agent.module` when the module does not
 *   load or its default export is not a function.
 */
export async function resolveAgentModule(value: unknown, scenarioFile: string): Promise<unknown> {
  if (typeof value !== 'object' || value === null) return value;
  const agent = (value as { agent?: unknown }).agent;
  if (typeof agent !== 'object' || agent === null || (agent as { kind?: unknown }).kind !== 'http') return value;
  const { module, ...rest } = agent as { module?: unknown };
  if (typeof module !== 'string') return value;
  const path = resolve(dirname(resolve(scenarioFile)), module);
  let run: unknown;
  try {
    run = await loadFile(path, FaultlineErrorCode.ScenarioInvalid);
  } catch (error) {
    if (!isFaultlineError(error)) throw error;
    const why = error.message.startsWith(path) ? error.message.slice(path.length + 2) : error.message;
    throw new FaultlineError(error.code, `${scenarioFile}: agent.module (${module}): ${why}`, { source: scenarioFile, agent: path });
  }
  if (typeof run !== 'function') {
    throw new FaultlineError(FaultlineErrorCode.ScenarioInvalid, `${scenarioFile}: agent.module (${module}): expected the default export to be the agent, a function (export default defineHttpAgent(async (ctx) => { ... })), got ${run === null ? 'null' : typeof run}`);
  }
  return { ...value, agent: { ...rest, run } };
}
