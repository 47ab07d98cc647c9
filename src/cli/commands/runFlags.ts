import { Option, type Command } from 'commander';
import type { Gate } from '../../runner/gates.js';
import type { ReporterName } from '../../report/write.js';
import { collect, collectGate, collectReporter, parseGrep, parseK, parseSeed, type SeedOption } from '../options.js';

/** The flags `run` and `compare` share, as commander hands them over. */
export interface RunFlags {
  readonly k: number;
  readonly seed: SeedOption;
  readonly config?: string[];
  readonly gate?: Gate[];
  readonly reporter?: ReporterName[];
  readonly out: string;
  readonly grep?: RegExp;
}

/** Adds the shared flags; repeatable ones get no commander default, since commander would append to it. */
export function addRunFlags(cmd: Command, configHelp: string): Command {
  return cmd
    .option('--k <n>', 'trials per scenario × configuration', parseK, 4)
    .addOption(new Option('--seed <n|random>', 'run seed; "random" picks one and prints it').argParser(parseSeed).default(1))
    .option('--config <name|file>', `${configHelp} (repeatable)`, collect)
    .option('--gate <expr>', 'a gate the run must hold, e.g. "pass^4>=0.95" (repeatable; default: pass^k>=1, duplicates==0, budget_violations==0)', collectGate)
    .option('--reporter <name>', 'console, json, junit or markdown (repeatable; default: all four)', collectReporter)
    .option('--out <dir>', 'folder the report files go to', 'reports')
    .option('--grep <pattern>', 'only scenarios whose name matches this regular expression', parseGrep);
}
