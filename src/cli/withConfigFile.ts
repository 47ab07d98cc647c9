import type { Command } from 'commander';
import { parseGate } from '../stats/gates.js';
import type { RunFlags } from './commands/runFlags.js';
import type { ConfigOrigins } from '../config/configOrigins.js';
import type { LoadedConfigFile } from '../config/loadConfigFile.js';
import { readProjectConfig } from '../config/readProjectConfig.js';
import { grepFromConfigFile } from './grepScenarios.js';
import type { ScenarioProject } from '../scenario/project.js';

export interface Invocation {
  readonly scenarios: string[];
  readonly flags: RunFlags;
}

/** What `explore` and `sweep` take from the project's config file: the flags they share with `run`. */
export interface SharedFlags {
  readonly config?: string[];
  readonly seed: RunFlags['seed'];
  readonly grep?: RegExp;
  readonly configFile?: string;
  /** `--agent`: the matrix agents to run (all when absent). */
  readonly agent?: string[];
  /** Set from the config file: its `defaults` and `agents`, applied to every scenario loaded. */
  readonly project?: ScenarioProject;
  /**
   * Set when `config` is the config file's `retryConfigs` (this file), not `--config`: the project's
   * defaults, which a run of only agents that retry in their own code leaves aside with a note.
   */
  readonly configsFrom?: string;
}

/**
 * The scenarios and flags of `explore` or `sweep` with the project's config file filled in, as
 * for `run`: scenarios, retry configurations, seed and grep (a flag typed wins); `k` and `outDir`
 * too where the command has them (`sweep`), through `more`.
 */
export async function withSharedConfigFile<F extends SharedFlags>(
  cmd: Command,
  scenarios: string[],
  flags: F,
  more: (
    config: LoadedConfigFile['config'],
    typed: (option: string) => boolean,
    file: string,
  ) => Partial<F> = () => ({}),
): Promise<{ scenarios: string[]; flags: F }> {
  const read = await readProjectConfig(flags.configFile, flags.agent);
  if (read === undefined) return { scenarios, flags };
  const {
    file,
    loaded: { config },
    project,
  } = read;
  const typed = (option: string): boolean => cmd.getOptionValueSource(option) === 'cli';
  return {
    scenarios: scenarios.length > 0 ? scenarios : [...(config.scenarios ?? [])],
    flags: {
      ...flags,
      ...(project && { project }),
      seed: typed('seed') ? flags.seed : (config.seed ?? flags.seed),
      ...(flags.config === undefined && config.retryConfigs && { config: [...config.retryConfigs], configsFrom: file }),
      ...(flags.grep === undefined && config.grep !== undefined && { grep: grepFromConfigFile(config.grep, file) }),
      ...more(config, typed, file),
    },
  };
}

/**
 * The scenarios and flags of `run`/`compare` with the project's config file filled in: a
 * flag given on the command line (or a positional scenario) wins, then the config file, then
 * the built-in default. No config file: the invocation as it was.
 */
export async function withConfigFile(cmd: Command, scenarios: string[], flags: RunFlags): Promise<Invocation> {
  const read = await readProjectConfig(flags.configFile, flags.agent);
  if (read === undefined) return { scenarios, flags };
  const {
    file,
    loaded: { config, origins },
    project,
  } = read;
  // Commander fills k, seed and out with their defaults; only a value typed by the user beats the file.
  const typed = (option: string): boolean => cmd.getOptionValueSource(option) === 'cli';
  const fromFile: ConfigOrigins = {
    file,
    // Only the lists the command line did not replace.
    refs: new Map(
      [...origins].filter(([, at]) =>
        at.startsWith('scenarios[') ? scenarios.length === 0 : flags.config === undefined,
      ),
    ),
    gates: flags.gate === undefined && config.gates !== undefined,
    k: !typed('k') && config.k !== undefined,
    outDir: !typed('out') && config.outDir !== undefined,
    configs: flags.config === undefined && config.retryConfigs !== undefined,
  };
  return {
    scenarios: scenarios.length > 0 ? scenarios : [...(config.scenarios ?? [])],
    flags: {
      ...flags,
      origins: fromFile,
      ...(project && { project }),
      k: typed('k') ? flags.k : (config.k ?? flags.k),
      seed: typed('seed') ? flags.seed : (config.seed ?? flags.seed),
      out: typed('out') ? flags.out : (config.outDir ?? flags.out),
      ...(flags.config === undefined && config.retryConfigs && { config: [...config.retryConfigs] }),
      // Already checked when the file was loaded, so these parse.
      ...(flags.gate === undefined && config.gates && { gate: config.gates.map(parseGate) }),
      ...(flags.reporter === undefined && config.reporters && { reporter: [...config.reporters] }),
      ...(flags.grep === undefined && config.grep !== undefined && { grep: grepFromConfigFile(config.grep, file) }),
      ...(config.prices && { prices: config.prices }),
    },
  };
}
