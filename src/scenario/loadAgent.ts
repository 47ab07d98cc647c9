import { dirname, resolve } from 'node:path';
import { FaultlineError, FaultlineErrorCode, isFaultlineError } from '../core/index.js';
import { rememberAgentSource } from './freshAgent.js';
import { loadFile, thrownText } from './loadFile.js';

/**
 * A scenario file's value with an `http` agent's `module` replaced by the function it exports
 * (`run`), resolved from the scenario file's folder; a `command` agent's `cwd` resolved from it too.
 * @throws FaultlineError naming the scenario file and `agent.module` when the module does not
 *   load or its default export is not a function.
 */
export async function resolveAgentModule(value: unknown, scenarioFile: string): Promise<unknown> {
  if (typeof value !== 'object' || value === null) return value;
  const agent = (value as { agent?: unknown }).agent;
  if (typeof agent === 'object' && agent !== null && (agent as { kind?: unknown }).kind === 'command')
    return withCommandCwd(value, agent, scenarioFile);
  if (typeof agent !== 'object' || agent === null || (agent as { kind?: unknown }).kind !== 'http') return value;
  const { module, ...rest } = agent as { module?: unknown };
  if (typeof module !== 'string') {
    // A TypeScript scenario may pass the function itself (`run`); without either, say what a file needs.
    if ('run' in agent) return value;
    const name = (value as { name?: unknown }).name;
    const why =
      module === undefined
        ? "required: the path of the module whose default export is your agent (defineHttpAgent), from the scenario's folder"
        : `expected a module path, got ${typeof module}`;
    throw new FaultlineError(
      FaultlineErrorCode.ScenarioInvalid,
      `${scenarioFile}: invalid scenario${typeof name === 'string' ? ` "${name}"` : ''}:\n  - agent.module: ${why}`,
      { source: scenarioFile, issues: [`agent.module: ${why}`] },
    );
  }
  const path = resolve(dirname(resolve(scenarioFile)), module);
  let run: unknown;
  try {
    run = await loadFile(path, FaultlineErrorCode.ScenarioInvalid);
  } catch (error) {
    if (!isFaultlineError(error)) throw error;
    const why = error.message.startsWith(path) ? error.message.slice(path.length + 2) : error.message;
    throw new FaultlineError(error.code, `${scenarioFile}: agent.module (${module}): ${why}`, {
      source: scenarioFile,
      agent: path,
    });
  }
  // `typeof` reads no trap; a Proxy whose traps throw would crash the first reader of it later.
  if (typeof run === 'function') {
    try {
      Reflect.getPrototypeOf(run);
      void (run as { name?: unknown }).name;
    } catch (error) {
      throw new FaultlineError(
        FaultlineErrorCode.ScenarioInvalid,
        `${scenarioFile}: agent.module (${module}): reading the default export threw ${thrownText(error)} (expected ` +
          `a plain function: no proxy whose traps throw)`,
        { source: scenarioFile, agent: path },
      );
    }
  }
  if (typeof run !== 'function') {
    throw new FaultlineError(
      FaultlineErrorCode.ScenarioInvalid,
      `${scenarioFile}: agent.module (${module}): expected the default export to be the agent, a ` +
        `function (export default defineHttpAgent(async (ctx) => { ... })), got ${run === null ? 'null' : typeof run}`,
    );
  }
  rememberAgentSource(run, path, (exported) => exported);
  return { ...value, agent: { ...rest, run } };
}

/** A `command` agent's `cwd`, resolved from the scenario file's folder (default: that folder), as a module path is. */
function withCommandCwd(value: object, agent: object, scenarioFile: string): unknown {
  const cwd = (agent as { cwd?: unknown }).cwd;
  // A cwd of the wrong type, or an empty one (which would resolve to the folder itself), is left for the schema to name.
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '')) return value;
  return { ...value, agent: { ...agent, cwd: resolve(dirname(resolve(scenarioFile)), cwd ?? '.') } };
}

/**
 * A scenario file's value with `model.readToolResult` (a module path) replaced by the reader it
 * exports, resolved from the scenario file's folder.
 * @throws FaultlineError naming the scenario file and `model.readToolResult` when the module does
 *   not load or its default export is not a function.
 */
export async function resolveReaderModule(value: unknown, scenarioFile: string): Promise<unknown> {
  if (typeof value !== 'object' || value === null) return value;
  const model = (value as { model?: unknown }).model;
  if (typeof model !== 'object' || model === null) return value;
  const module = (model as { readToolResult?: unknown }).readToolResult;
  if (typeof module !== 'string') return value;
  const path = resolve(dirname(resolve(scenarioFile)), module);
  let reader: unknown;
  try {
    reader = await loadFile(path, FaultlineErrorCode.ScenarioInvalid);
  } catch (error) {
    if (!isFaultlineError(error)) throw error;
    const why = error.message.startsWith(path) ? error.message.slice(path.length + 2) : error.message;
    throw new FaultlineError(error.code, `${scenarioFile}: model.readToolResult (${module}): ${why}`, {
      source: scenarioFile,
      reader: path,
    });
  }
  if (typeof reader !== 'function') {
    throw new FaultlineError(
      FaultlineErrorCode.ScenarioInvalid,
      `${scenarioFile}: model.readToolResult (${module}): expected the default export to be a reader, ` +
        `a function (export default (result) => ({ kind: 'error', error: 'rate_limit' }) or undefined), ` +
        `got ${reader === null ? 'null' : typeof reader}`,
    );
  }
  return { ...value, model: { ...model, readToolResult: reader } };
}
