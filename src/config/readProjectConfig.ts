import { resolve } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { reloadProject, type ScenarioProject } from '../scenario/project.js';
import { findConfigFile } from './findConfigFile.js';
import type { LoadedConfigFile } from './loadConfigFile.js';

/**
 * The config file's `defaults` and `agents`, for the scenario loader (undefined when it has
 * neither); `--agent` names are checked against its agents here, before anything loads.
 */
export async function projectOfConfig(
  file: string,
  config: LoadedConfigFile['config'],
  pick: readonly string[] | undefined,
): Promise<ScenarioProject | undefined> {
  const names = (config.agents ?? []).map((a) => (a as { name: string }).name);
  if (pick !== undefined) {
    if (names.length === 0)
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `--agent ${pick.join(',')}: ${file} lists no agents (agents: [{ name, module }])`,
      );
    const unknown = pick.filter((p) => !names.includes(p));
    if (unknown.length > 0)
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `--agent ${unknown.join(',')}: no such agent in ${file} (agents: ${names.join(', ')})`,
      );
  }
  if (config.defaults === undefined && config.agents === undefined) return undefined;
  // Read again as the file wrote it: workers rebuild the scenarios from the same values.
  return reloadProject(resolve(file), pick);
}

/** The project's config file, checked, with what the scenario loader takes from it. */
export interface ProjectConfig {
  readonly file: string;
  readonly loaded: LoadedConfigFile;
  /** Its `defaults` and `agents` (narrowed by `--agent`); undefined when it has neither. */
  readonly project?: ScenarioProject;
}

/**
 * The config file every command that loads scenarios reads (`run`, `compare`, `replay`,
 * `explore`, `sweep`, `list`, `serve`, and `describeScenarios`): `--config-file` or the one in the
 * working folder, its `defaults` and `agents` for the loader, `--agent` checked against them.
 * Undefined when there is none; `--agent` without one is refused.
 */
export async function readProjectConfig(
  configFile: string | undefined,
  agent: readonly string[] | undefined,
): Promise<ProjectConfig | undefined> {
  const file = await findConfigFile(configFile);
  if (file === undefined) {
    if (agent !== undefined)
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `--agent ${agent.join(',')}: no faultline.config.ts here to list agents in (agents: [{ name, module }])`,
      );
    return undefined;
  }
  const { loadConfigFile } = await import('./loadConfigFile.js');
  const loaded = await loadConfigFile(file);
  const project = await projectOfConfig(file, loaded.config, agent);
  return { file, loaded, ...(project && { project }) };
}
