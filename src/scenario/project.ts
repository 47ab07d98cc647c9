import { relative } from 'node:path';
import { FaultlineError, FaultlineErrorCode, isFaultlineError } from '../core/index.js';
import { resolveAgentModule, resolveReaderModule } from './loadAgent.js';
import { loadFile } from './loadFile.js';
import { resolveServiceModules } from './loadService.js';

/** The scenario fields `defaults` in faultline.config.ts may set for every scenario that leaves them out. */
export const DEFAULTED_FIELDS = ['services', 'model', 'http', 'network', 'budget', 'checks', 'agent'] as const;
export type DefaultedField = (typeof DEFAULTED_FIELDS)[number];

/**
 * What a project's config file gives its scenarios: `defaults` (whole fields, each used by a
 * scenario that does not set it) and `agents` (the matrix: every scenario without an agent of
 * its own runs once per agent). Paths in them are read from the config file's folder.
 */
export interface ScenarioProject {
  /** The config file (absolute path): workers load it again to build the same scenarios. */
  readonly file: string;
  readonly defaults?: Readonly<Partial<Record<DefaultedField, unknown>>>;
  readonly agents?: readonly { readonly name: string }[];
  /** `--agent`: the matrix agents to run (all when absent). */
  readonly pick?: readonly string[];
}

/** Which matrix agent a scenario was built for, and whether a retry configuration reaches it. */
export interface MatrixAgent {
  readonly name: string;
  /** `http` and `command` agents retry in their own code: faultline's retry configuration never reaches them. */
  readonly ignoresConfig: boolean;
}

/** An agent kind that makes its own calls and retries, so no retry configuration applies to it. */
export const ignoresRetryConfig = (kind: unknown): boolean => kind === 'http' || kind === 'command';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A config file's defaults and agents with their module paths loaded, read from the config file's folder. */
interface ResolvedProject {
  readonly defaults: Record<string, unknown>;
  readonly agents: readonly { readonly name: string; readonly agent: Record<string, unknown> }[];
}

const resolved = new Map<string, Promise<ResolvedProject>>();

async function resolveAgent(agent: unknown, file: string, at: string): Promise<Record<string, unknown>> {
  if (!isObject(agent)) return {};
  // A `{ name, module }` entry is an http agent: the one kind whose code is a module.
  const kind = agent['kind'] ?? ('module' in agent || 'run' in agent ? 'http' : undefined);
  const { name: _name, ...rest } = agent;
  const spec: Record<string, unknown> = { ...rest, ...(kind !== undefined && { kind }) };
  try {
    const value = (await resolveAgentModule({ agent: spec }, file)) as { agent: Record<string, unknown> };
    return value.agent;
  } catch (error) {
    if (!isFaultlineError(error)) throw error;
    throw new FaultlineError(
      error.code,
      error.message
        .replace(`${file}: agent.`, `${file}: ${at}.`)
        .replace(`${file}: invalid scenario:\n  - agent.`, `${file}: ${at}.`),
      error.details,
    );
  }
}

/**
 * An error of a module the config file names, as the file says it: the file as the user sees it
 * (relative to the working folder) and the path in it under `defaults` (`defaults.services[0]`).
 */
function inConfigFile(error: unknown, file: string): unknown {
  if (!isFaultlineError(error)) return error;
  const rel = relative(process.cwd(), file);
  const shown = rel === '' || rel.startsWith('..') ? file : rel;
  const rest = error.message.startsWith(`${file}: `) ? error.message.slice(file.length + 2) : undefined;
  if (rest === undefined) return error;
  const message = `${shown}: ${rest.startsWith('services[') || rest.startsWith('model.') ? `defaults.${rest}` : rest}`;
  return new FaultlineError(error.code, message, error.details);
}

async function resolveProject(project: ScenarioProject): Promise<ResolvedProject> {
  try {
    return await resolveProjectModules(project);
  } catch (error) {
    throw inConfigFile(error, project.file);
  }
}

async function resolveProjectModules(project: ScenarioProject): Promise<ResolvedProject> {
  const { file } = project;
  const rawDefaults: Record<string, unknown> = { ...project.defaults };
  const { agent, ...fields } = rawDefaults;
  const defaults = (await resolveReaderModule(await resolveServiceModules(fields, file), file)) as Record<
    string,
    unknown
  >;
  if (agent !== undefined) defaults['agent'] = await resolveAgent(agent, file, 'defaults.agent');
  const agents = [];
  for (const [i, entry] of (project.agents ?? []).entries())
    agents.push({ name: entry.name, agent: await resolveAgent(entry, file, `agents[${i}]`) });
  return { defaults, agents };
}

/** Resolved once per config file and process: its modules (agents, services) are loaded once, as a scenario file's are. */
const projectOf = (project: ScenarioProject): Promise<ResolvedProject> => {
  const key = `${project.file}\u0000${JSON.stringify(project.agents?.map((a) => a.name) ?? [])}`;
  let p = resolved.get(key);
  if (p === undefined) {
    p = resolveProject(project);
    resolved.set(key, p);
  }
  return p;
};

/**
 * A scenario file's value (its own paths already resolved) with the project's defaults filled
 * in: one value per matrix agent when it has no agent of its own, else one. Merging replaces
 * whole fields, as Playwright's `use` options do: a scenario that sets `budget` keeps its own
 * budget, every key of it. The one exception is `agent` without a `kind`: it holds what the
 * scenario adds to its agents (`task`, a scripted `plan`) and is laid over each of them.
 */
export async function applyProject(
  value: unknown,
  project: ScenarioProject | undefined,
): Promise<{ value: unknown; agent?: MatrixAgent }[]> {
  if (project === undefined || !isObject(value)) return [{ value }];
  const { defaults, agents } = await projectOf(project);
  const filled: Record<string, unknown> = { ...value };
  for (const [key, v] of Object.entries(defaults)) if (key !== 'agent' && filled[key] === undefined) filled[key] = v;
  // The default `http` goes to the agents that make HTTP calls (http, command) only: a scenario's own is checked as written.
  const ownHttp = isObject(value) && value['http'] !== undefined;
  const forAgent = (v: Record<string, unknown>): Record<string, unknown> => {
    if (
      ownHttp ||
      v['http'] === undefined ||
      (isObject(v['agent']) && (v['agent']['kind'] === 'http' || v['agent']['kind'] === 'command'))
    )
      return v;
    const { http: _http, ...rest } = v;
    return rest;
  };
  const own = filled['agent'];
  if (isObject(own) && own['kind'] !== undefined) return [{ value: forAgent(filled) }];
  const extra = isObject(own) ? own : {};
  if (agents.length === 0) {
    const base = defaults['agent'];
    return [{ value: forAgent(isObject(base) ? { ...filled, agent: { ...base, ...extraFor(base, extra) } } : filled) }];
  }
  const picked = project.pick === undefined ? agents : agents.filter((a) => project.pick!.includes(a.name));
  return picked.map(({ name, agent }) => ({
    value: forAgent({ ...filled, agent: { ...agent, ...extraFor(agent, extra) } }),
    agent: { name, ignoresConfig: ignoresRetryConfig(agent['kind']) },
  }));
}

/** What only a scripted agent reads: the others make their own calls, and an `http` agent's model has its plan in `model.plan`. */
const SCRIPTED_ONLY = new Set(['plan', 'behaviour']);

/**
 * What a scenario's kindless `agent` adds to one matrix agent: all of it to a scripted agent;
 * to the others, all but the scripted plan and behaviour, so one scenario can serve a matrix
 * of scripted and SDK agents (each reads what is its own) instead of being refused for them.
 */
function extraFor(agent: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  if (agent['kind'] === 'scripted') return extra;
  return Object.fromEntries(Object.entries(extra).filter(([key]) => !SCRIPTED_ONLY.has(key)));
}

/**
 * What a worker needs to build the same scenarios: the config file's `defaults` and `agents`,
 * read again from the file (they may hold functions, which cannot travel between threads).
 */
export async function reloadProject(file: string, pick: readonly string[] | undefined): Promise<ScenarioProject> {
  const value = await loadFile(file, FaultlineErrorCode.ConfigInvalid);
  const config = isObject(value) ? value : {};
  return {
    file,
    ...(isObject(config['defaults']) && { defaults: config['defaults'] }),
    ...(Array.isArray(config['agents']) && { agents: config['agents'] as { name: string }[] }),
    ...(pick && { pick }),
  };
}
