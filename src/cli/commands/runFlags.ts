import { Option, type Command } from 'commander';
import type { Gate } from '../../runner/gates.js';
import type { ConfigOrigins } from '../config/configOrigins.js';
import type { ReporterName } from '../../report/write.js';
import type { Shard } from '../../runner/shard.js';
import type { ScenarioProject } from '../../runner/project.js';
import { isolationOptions } from './isolationFlags.js';
import { collect, collectGate, collectNames, collectReporter, parseGrep, parseInteger, parseK, parseSeed, parseShardFlag, type SeedOption } from '../options.js';

/** The flags `run` and `compare` share, as commander hands them over. */
export interface RunFlags {
  readonly k: number;
  readonly seed: SeedOption;
  readonly config?: string[];
  readonly gate?: Gate[];
  readonly reporter?: ReporterName[];
  readonly out: string;
  readonly grep?: RegExp;
  readonly workers?: number;
  readonly keepFailures: number;
  readonly shard?: Shard;
  readonly trialTimeout?: number;
  readonly workerHeap?: number;
  /** `--config-file`: the project config to read instead of ./faultline.config.ts. */
  readonly configFile?: string;
  /** Model answers from the real endpoint, new requests recorded into each scenario's cassette. */
  readonly record?: boolean;
  /** Model answers from the real endpoint, every trial. */
  readonly live?: boolean;
  /** Set by the config file: which values came from it, for refusals that name it. */
  readonly origins?: ConfigOrigins;
  /** `--agent`: the matrix agents (faultline.config.ts's `agents`) to run; all when absent. */
  readonly agent?: string[];
  /** Set by the config file: its `defaults` and `agents`, applied to every scenario loaded. */
  readonly project?: ScenarioProject;
}

/** The default for `--keep-failures`: enough to read a failure, small enough for a large run. */
export const DEFAULT_KEEP_FAILURES = 5;

/** How the matrix is run, from the flags: what `executeRun` passes on to `runMatrix`. */
export function matrixFlags(flags: RunFlags): Pick<RunFlags, 'workers' | 'keepFailures' | 'shard' | 'trialTimeout' | 'workerHeap'> {
  return {
    keepFailures: flags.keepFailures,
    ...(flags.workers !== undefined && { workers: flags.workers }),
    ...(flags.shard && { shard: flags.shard }),
    ...(flags.trialTimeout !== undefined && { trialTimeout: flags.trialTimeout }),
    ...(flags.workerHeap !== undefined && { workerHeap: flags.workerHeap }),
  };
}

/** Adds the shared flags; repeatable ones get no commander default, since commander would append to it. */
export function addRunFlags(cmd: Command, configHelp: string): Command {
  return cmd
    .option('--k <n>', 'trials per scenario × configuration', parseK, 4)
    .addOption(new Option('--seed <n|random>', 'run seed; "random" picks one and prints it').argParser(parseSeed).default(1))
    .option('--config <name|file>', `${configHelp} (repeatable)`, collect)
    .option('--gate <expr>', 'a gate the run must hold, e.g. "pass^4>=0.95", or on a confidence bound "pass^4>=0.9@95%" (repeatable; default: pass^k>=1, duplicates==0, budget_violations==0)', collectGate)
    .option('--reporter <name>', 'console, json, junit, markdown or html (repeatable; default: all but html)', collectReporter)
    .option('--out <dir>', 'folder the report files go to', 'reports')
    .option('-t, --grep <pattern>', 'only scenarios whose name matches this regular expression', parseGrep)
    .option('--workers <n>', 'worker threads the trials run on, each trial isolated from the run (default: the available cores, one per 500 trials, at least 1, or 0 for a run of no code of yours that one worker would hold; 0: in this process, without isolation)', (v) => parseInteger(v, 0, 'a number of workers, 0 or more'))
    .option('--keep-failures <n>', 'failing trials per cell kept in full, history and all; the rest are counted', (v) => parseInteger(v, 0, 'a number of trials, 0 or more'), DEFAULT_KEEP_FAILURES)
    .option('--shard <i/n>', 'run only slice i of n of the trials (merge the shard reports with "faultline merge")', parseShardFlag)
    .addOption(isolationOptions()[0]!)
    .addOption(isolationOptions()[1]!)
    .option('--agent <name>', "only these agents of faultline.config.ts's agents (repeatable, or a comma list)", collectNames)
    .option('--config-file <file>', 'the project config file to read (default: ./faultline.config.ts if there is one; flags win over it)')
    .addOption(
      new Option('--record', "send model requests to the scenario's model.baseUrl (key from OPENAI_API_KEY / ANTHROPIC_API_KEY) and write what it answers to the scenario's cassette").conflicts('live'),
    )
    .addOption(new Option('--live', "send every trial's model requests to the real endpoint (real pass^k of a real model); nothing is recorded"));
}
