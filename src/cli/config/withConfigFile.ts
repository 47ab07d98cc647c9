import type { Command } from 'commander';
import { parseGate } from '../../runner/gates.js';
import type { RunFlags } from '../commands/runFlags.js';
import type { ConfigOrigins } from './configOrigins.js';
import { findConfigFile, loadConfigFile } from './loadConfigFile.js';

export interface Invocation {
  readonly scenarios: string[];
  readonly flags: RunFlags;
}

/**
 * The scenarios and flags of `run`/`compare` with the project's config file filled in: a
 * flag given on the command line (or a positional scenario) wins, then the config file, then
 * the built-in default. No config file: the invocation as it was.
 */
export async function withConfigFile(cmd: Command, scenarios: string[], flags: RunFlags): Promise<Invocation> {
  const file = await findConfigFile(flags.configFile);
  if (file === undefined) return { scenarios, flags };
  const { config, origins } = await loadConfigFile(file);
  // Commander fills k, seed and out with their defaults; only a value typed by the user beats the file.
  const typed = (option: string): boolean => cmd.getOptionValueSource(option) === 'cli';
  const fromFile: ConfigOrigins = {
    file,
    // Only the lists the command line did not replace.
    refs: new Map([...origins].filter(([, at]) => (at.startsWith('scenarios[') ? scenarios.length === 0 : flags.config === undefined))),
    gates: flags.gate === undefined && config.gates !== undefined,
    outDir: !typed('out') && config.outDir !== undefined,
  };
  return {
    scenarios: scenarios.length > 0 ? scenarios : [...(config.scenarios ?? [])],
    flags: {
      ...flags,
      origins: fromFile,
      k: typed('k') ? flags.k : (config.k ?? flags.k),
      seed: typed('seed') ? flags.seed : (config.seed ?? flags.seed),
      out: typed('out') ? flags.out : (config.outDir ?? flags.out),
      ...(flags.config === undefined && config.retryConfigs && { config: [...config.retryConfigs] }),
      // Already checked when the file was loaded, so these parse.
      ...(flags.gate === undefined && config.gates && { gate: config.gates.map(parseGate) }),
      ...(flags.reporter === undefined && config.reporters && { reporter: [...config.reporters] }),
      ...(flags.grep === undefined && config.grep !== undefined && { grep: new RegExp(config.grep) }),
    },
  };
}
