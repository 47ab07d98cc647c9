import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';
import { parseExecutionConfig, type ExecutionConfig } from '../runtime/executionConfig.js';
import { DATA_EXTENSIONS, loadFile, MODULE_EXTENSIONS, readSafely } from './loadFile.js';
import { rememberAgentSource, scenarioFileAgent } from './freshAgent.js';
import { resolveAgentModule, resolveReaderModule } from './loadAgent.js';
import { resolveServiceModules } from './loadService.js';
import { applyProject, type MatrixAgent, type ScenarioProject } from './project.js';
import { defineScenario, type Scenario, type ScenarioInput } from './scenario.js';

/** The built-in scenario library and its retry configurations, shipped with the package. */
export const LIBRARY_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));
export const CONFIG_DIR = join(LIBRARY_DIR, 'configs');
export const DEFAULT_CONFIG = 'rulebook';
/**
 * Many-agent scenarios and the configurations compared under them: built in, runnable by name
 * or path, but outside the default library (a hundred agents per trial would slow every plain
 * `faultline run` and CI job that runs the library), and outside the default set of `compare`.
 */
export const CROWD_DIR = join(LIBRARY_DIR, 'crowds');
export const CROWD_CONFIG_DIR = join(CONFIG_DIR, 'crowds');
/** Where a bare configuration name is looked up, in this order. */
export const CONFIG_DIRS: readonly string[] = [CONFIG_DIR, CROWD_CONFIG_DIR];
const BUILTIN_DIRS = [LIBRARY_DIR, CROWD_DIR, ...CONFIG_DIRS].map((d) => resolve(d));

const LOADABLE = [...DATA_EXTENSIONS, ...MODULE_EXTENSIONS] as readonly string[];
// A project's config file is never a scenario, even in a folder of them (an example's sits beside its scenarios).
const isLoadable = (file: string): boolean =>
  LOADABLE.includes(extname(file).toLowerCase()) &&
  !file.endsWith('.d.ts') &&
  !/^faultline\.config\.[cm]?[jt]s$/.test(basename(file));

/** Scenario and configuration files directly inside `dir`, sorted by name. */
export async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && isLoadable(e.name))
    .map((e) => join(dir, e.name))
    .sort();
}

/**
 * The files of a folder a user named: refused (naming the folder) when it cannot be read or
 * holds no loadable file, since a run of zero trials would "fail its gates" for no reason
 * anyone could see. Subfolders are not searched; the message says so when they hold files.
 */
export async function filesInFolder(dir: string, what: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new FaultlineError(
      FaultlineErrorCode.NotFound,
      `${dir}: cannot read the ${what} folder (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const files = entries
    .filter((e) => e.isFile() && isLoadable(e.name))
    .map((e) => join(dir, e.name))
    .sort();
  if (files.length > 0) return files;
  const nested: string[] = [];
  for (const e of entries.filter((d) => d.isDirectory())) {
    const inside = await readdir(join(dir, e.name)).catch(() => [] as string[]);
    if (inside.some(isLoadable)) nested.push(join(dir, e.name));
  }
  const hint = nested.length > 0 ? `; subfolders are not searched: name ${nested.join(', ')} instead` : '';
  throw new FaultlineError(
    FaultlineErrorCode.NotFound,
    `${dir}: no ${what} files in this folder (expected ${LOADABLE.join(', ')} files directly inside it${hint})`,
  );
}

/** Where each loaded scenario or configuration came from, so a replay command can name it. */
const sources = new WeakMap<object, string>();

/** The file a scenario or configuration was loaded from (an absolute path), if it came from one: how a worker loads it again. */
export const sourceOf = (loaded: object): string | undefined => sources.get(loaded);
/** The file a scenario or configuration was loaded from (absolute), if it came from one. */
export const sourceFileOf = (loaded: object): string | undefined => sources.get(loaded);

/**
 * `derived` (a variant of `original`: other faults, another name) counts as loaded from `original`'s file, so its
 * paths resolve from there.
 */
export function keepSource<T extends object>(original: object, derived: T): T {
  const file = sources.get(original);
  if (file !== undefined) sources.set(derived, file);
  return derived;
}

/**
 * How a command line names a loaded scenario or configuration: a built-in by its name,
 * anything else by its path, so `faultline replay` finds user files too.
 */
export function refOf(loaded: { readonly name: string }): string {
  const file = sources.get(loaded);
  // Built-ins sit directly in the library's folders; the worked examples below them are files like any other.
  if (file === undefined || BUILTIN_DIRS.includes(dirname(file))) return loaded.name;
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') || rel.includes(sep) ? rel : `.${sep}${rel}`;
}

export async function loadScenarioFile(file: string): Promise<Scenario> {
  const [scenario] = await loadScenarioVariants(file, undefined);
  return scenario!;
}

/** The matrix agent each scenario was built for (from faultline.config.ts's `agents`). */
const matrixAgents = new WeakMap<object, MatrixAgent>();

/** The matrix agent a loaded scenario runs (`agents` in faultline.config.ts), if it runs one. */
export const matrixAgentOf = (scenario: object): MatrixAgent | undefined => matrixAgents.get(scenario);

/** Where the matrix scenarios' defaults and agents came from (the config file), for workers to build them again. */
const projects = new WeakMap<object, ScenarioProject>();
export const projectOf = (scenario: object): ScenarioProject | undefined => projects.get(scenario);

/** `derived` (a variant of a loaded scenario) counts as loaded as `original` was: its file, its matrix agent, its project. */
export function keepLoaded<T extends object>(original: object, derived: T): T {
  keepSource(original, derived);
  const agent = matrixAgents.get(original);
  if (agent !== undefined) matrixAgents.set(derived, agent);
  const project = projects.get(original);
  if (project !== undefined) projects.set(derived, project);
  return derived;
}

/**
 * A scenario file with the project's defaults filled in: one scenario per matrix agent when it
 * has no agent of its own and the project lists agents, else one.
 */
export async function loadScenarioVariants(
  file: string,
  project: ScenarioProject | undefined,
  served = false,
): Promise<Scenario[]> {
  const value = await resolveReaderModule(
    await resolveAgentModule(
      await resolveServiceModules(await loadFile(file, FaultlineErrorCode.ScenarioInvalid), file),
      file,
    ),
    file,
  );
  const out: Scenario[] = [];
  for (const variant of await applyProject(value, project)) {
    if (served) variant.value = withServedAgent(variant.value);
    const scenario = readSafely(file, FaultlineErrorCode.ScenarioInvalid, () =>
      defineScenario(variant.value as ScenarioInput, variant.agent ? `${file} (agent ${variant.agent.name})` : file),
    );
    sources.set(scenario, resolve(file));
    // An agent written in the scenario file itself: a restart after crash.agent imports the file afresh.
    if (!variant.agent && /\.[cm]?[jt]s$/.test(file))
      rememberAgentSource(scenarioFileAgent(scenario), resolve(file), scenarioFileAgent);
    if (variant.agent) matrixAgents.set(scenario, variant.agent);
    if (project) projects.set(scenario, project);
    out.push(scenario);
  }
  return out;
}

/**
 * Served (`serve`, `mcp-serve`), the client is the agent: a scenario without an `agent` block is
 * given a placeholder that is never started, so the block is optional there.
 */
function withServedAgent(value: unknown): unknown {
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    (value as Record<string, unknown>)['agent'] !== undefined
  )
    return value;
  return { ...value, agent: { kind: 'command', task: 'served: the client is the agent', argv: ['served-client'] } };
}

/** A configuration file of any kind (`runtime`, the default, `cockatiel` or `p-retry`). */
export async function loadConfigFile(file: string): Promise<ExecutionConfig> {
  const value = await loadFile(file, FaultlineErrorCode.ConfigInvalid);
  const config = readSafely(file, FaultlineErrorCode.ConfigInvalid, () => parseExecutionConfig(value, file));
  sources.set(config, resolve(file));
  return config;
}

/**
 * A path to a file or folder, or the name of a built-in entry in `dir`. A bare word
 * (no separator, no extension) is a built-in name first, so a local folder called
 * `naive` cannot shadow the `naive` configuration.
 */
export async function resolveRefs(refs: readonly string[], dirs: readonly string[], what: string): Promise<string[]> {
  const files: string[] = [];
  const builtins = (await Promise.all(dirs.map((d) => filesIn(d)))).flat();
  for (const ref of refs) {
    const bare = !ref.includes('/') && !ref.includes(sep) && extname(ref) === '';
    const builtin = bare ? builtins.find((f) => basename(f, extname(f)) === ref) : undefined;
    const info = builtin ? undefined : await stat(ref).catch(() => undefined);
    if (builtin) files.push(builtin);
    else if (info?.isDirectory()) files.push(...(await filesInFolder(ref, what)));
    else if (info?.isFile()) files.push(ref);
    else {
      const known = builtins.map((f) => basename(f, extname(f)));
      throw new FaultlineError(
        FaultlineErrorCode.NotFound,
        `no ${what} file or built-in ${what} named "${ref}" (built-in: ${known.join(', ')})`,
      );
    }
  }
  return files;
}

function assertUnique(names: readonly { name: string }[], files: readonly string[], what: string): void {
  const seen = new Map<string, string>();
  names.forEach(({ name }, i) => {
    const before = seen.get(name);
    if (before !== undefined)
      throw new FaultlineError(
        FaultlineErrorCode.ScenarioInvalid,
        `two ${what}s are named "${name}": ${before} and ${files[i]}`,
      );
    seen.set(name, files[i]!);
  });
}

/** Scenarios from files, folders or built-in names; the whole built-in library when `refs` is empty. */
export async function loadScenarios(
  refs: readonly string[] = [],
  project?: ScenarioProject,
  served = false,
): Promise<Scenario[]> {
  const files =
    refs.length === 0 ? await filesIn(LIBRARY_DIR) : await resolveRefs(refs, [LIBRARY_DIR, CROWD_DIR], 'scenario');
  const perFile: Scenario[][] = [];
  for (const file of files) perFile.push(await loadScenarioVariants(file, project, served));
  // The variants of one file share its name (one scenario, several agents); two files may not.
  assertUnique(
    perFile.map((v) => v[0] ?? { name: '' }).filter((s) => s.name !== ''),
    files.filter((_, i) => perFile[i]!.length > 0),
    'scenario',
  );
  return perFile.flat();
}

/** Configurations of any kind from files, folders or built-in names; the rulebook default when `refs` is empty. */
export async function loadConfigs(refs: readonly string[] = []): Promise<ExecutionConfig[]> {
  const files = await resolveRefs(refs.length === 0 ? [DEFAULT_CONFIG] : refs, CONFIG_DIRS, 'configuration');
  const configs: ExecutionConfig[] = [];
  for (const file of files) configs.push(await loadConfigFile(file));
  assertUnique(configs, files, 'configuration');
  return configs;
}
