import { Option, type Command } from 'commander';
import type { Gate } from '../../stats/gates.js';
import type { ConfigOrigins } from '../../config/configOrigins.js';
import type { ReporterName } from '../../report/write.js';
import type { Shard } from '../../runner/shard.js';
import type { ScenarioProject } from '../../scenario/project.js';
import { isolationOptions } from './isolationFlags.js';
import { addLiveFlags } from './liveFlags.js';
import { behaviourOption } from './behaviourOption.js';
import { addAgentFlag } from './projectFlags.js';
import {
  collect,
  collectGate,
  collectReporter,
  parseBail,
  parseGrep,
  parseInteger,
  parseK,
  parseSeed,
  parseOtlpEndpoint,
  parseShardFlag,
  type SeedOption,
} from '../options.js';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import { WATCH_RERUN_ENV } from '../watch/watchEnv.js';
import type { PriceTable } from '../../model/live/prices.js';

/** The flags `run` and `compare` share, as commander hands them over. */
export interface RunFlags {
  readonly k: number;
  readonly seed: SeedOption;
  readonly config?: string[];
  /** `--behaviour`: the scripted stand-in's behaviour in every scenario; several give a cell each. */
  readonly behaviour?: string[];
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
  /** A live run whose trials' recordings are then written to each scenario's cassette. */
  readonly record?: boolean;
  /** Model answers from the real endpoint, every trial. */
  readonly live?: boolean;
  /** `--live`: model requests in flight at once, over every trial and worker. */
  readonly maxConnections?: number;
  /** `--live`: infra errors the gates allow (default 0). */
  readonly maxInfraErrors?: number;
  /** `--live`: retries of a provider's own failure before the trial ends `infra-error`. */
  readonly liveRetries?: number;
  /** Stop the run once the model answers have cost this much. */
  readonly maxCost?: number;
  /** From the config file: prices per million tokens over the shipped table. */
  readonly prices?: PriceTable;
  /** Set by the config file: which values came from it, for refusals that name it. */
  readonly origins?: ConfigOrigins;
  readonly bail?: number;
  /** `--max-failures`, Playwright's name for `--bail`. */
  readonly maxFailures?: number;
  readonly lastFailed?: boolean;
  readonly watch?: boolean;
  readonly quiet?: boolean;
  /** `--agent`: the matrix agents (faultline.config.ts's `agents`) to run; all when absent. */
  readonly agent?: string[];
  /** Set by the config file: its `defaults` and `agents`, applied to every scenario loaded. */
  readonly project?: ScenarioProject;
  /** `--otlp-endpoint`: the collector the OTLP traces go to. */
  readonly otlpEndpoint?: URL;
  /** `--otlp-all`: every trial as a trace, passing ones too. */
  readonly otlpAll?: boolean;
}

/** The default for `--keep-failures`: enough to read a failure, small enough for a large run. */
export const DEFAULT_KEEP_FAILURES = 5;

/** `--bail` or `--max-failures` (the same flag under vitest's and Playwright's names); both, with different values, is refused. */
export function bailOf(flags: Pick<RunFlags, 'bail' | 'maxFailures'>): number | undefined {
  if (flags.bail !== undefined && flags.maxFailures !== undefined && flags.bail !== flags.maxFailures) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `--bail ${flags.bail} and --max-failures ${flags.maxFailures} are the same flag; give one value`,
    );
  }
  return flags.bail ?? flags.maxFailures;
}

/** What `--watch` asks: to watch (this process), to run the files a watching faultline names (a run it started), or neither. */
export function watchRole(
  flags: RunFlags,
  env: Readonly<Record<string, string | undefined>>,
): { kind: 'none' } | { kind: 'watch' } | { kind: 'rerun'; files?: readonly string[] } {
  if (flags.watch !== true) return { kind: 'none' };
  if (flags.lastFailed === true)
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      '--watch reruns what changed and --last-failed what failed last time: give one of them',
    );
  const rerun = env[WATCH_RERUN_ENV];
  if (rerun === undefined) return { kind: 'watch' };
  return rerun === '' ? { kind: 'rerun' } : { kind: 'rerun', files: JSON.parse(rerun) as string[] };
}

/** The habits flags (`--bail`, `--last-failed`, `--quiet`) as `executeRun` takes them. */
export function habitFlags(
  cmd: Command,
  typed: readonly string[],
  flags: RunFlags,
): { bail?: number; lastFailed?: boolean; scenariosTyped?: boolean; quiet?: boolean; outDirTyped?: boolean } {
  const bail = bailOf(flags);
  return {
    ...(bail !== undefined && { bail }),
    ...(flags.lastFailed === true && { lastFailed: true, scenariosTyped: typed.length > 0 }),
    ...(flags.quiet === true && { quiet: true }),
    ...(cmd.getOptionValueSource('out') === 'cli' && { outDirTyped: true }),
  };
}

/** How the matrix is run, from the flags: what `executeRun` passes on to `runMatrix`. */
export function matrixFlags(
  flags: RunFlags,
): Partial<Pick<RunFlags, 'keepFailures' | 'otlpEndpoint' | 'otlpAll'>> &
  Pick<
    RunFlags,
    | 'workers'
    | 'shard'
    | 'trialTimeout'
    | 'workerHeap'
    | 'maxConnections'
    | 'maxInfraErrors'
    | 'liveRetries'
    | 'maxCost'
    | 'prices'
  > {
  // Said, not ignored: without --live or --record there is no provider to connect to, retry or fail.
  if (flags.live !== true && flags.record !== true) {
    const given = (['maxConnections', 'maxInfraErrors', 'liveRetries', 'maxCost'] as const).filter(
      (f) => flags[f] !== undefined,
    );
    const first = given[0];
    if (first !== undefined) {
      const flag = `--${first.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `${flag}: only with --live or --record (it governs the real model provider's requests, which this run does not make)`,
      );
    }
  }
  return {
    ...(flags.prices && { prices: flags.prices }),
    ...(flags.maxConnections !== undefined && { maxConnections: flags.maxConnections }),
    ...(flags.maxInfraErrors !== undefined && { maxInfraErrors: flags.maxInfraErrors }),
    ...(flags.liveRetries !== undefined && { liveRetries: flags.liveRetries }),
    ...(flags.maxCost !== undefined && { maxCost: flags.maxCost }),
    // --otlp-all: every trial kept in full (none left to count), so that each one's history becomes a trace.
    ...(flags.otlpAll === true ? { otlpAll: true } : { keepFailures: flags.keepFailures }),
    ...(flags.otlpEndpoint && { otlpEndpoint: flags.otlpEndpoint }),
    ...(flags.workers !== undefined && { workers: flags.workers }),
    ...(flags.shard && { shard: flags.shard }),
    ...(flags.trialTimeout !== undefined && { trialTimeout: flags.trialTimeout }),
    ...(flags.workerHeap !== undefined && { workerHeap: flags.workerHeap }),
  };
}

/** Adds the shared flags; repeatable ones get no commander default, since commander would append to it. */
export function addRunFlags(cmd: Command, configHelp: string): Command {
  cmd
    .option('--k <n>', 'trials per scenario × configuration', parseK, 4)
    .addOption(
      new Option('--seed <n|random>', 'run seed; "random" picks one and prints it').argParser(parseSeed).default(1),
    )
    .option('--config <name|file>', `${configHelp} (repeatable)`, collect)
    .addOption(behaviourOption(true))
    .option(
      '--gate <expr>',
      'a gate the run must hold, e.g. "pass^4>=0.95", or on a confidence bound "pass^4>=0.9@95%" ' +
        '(repeatable; default: pass^k>=1, duplicates==0, budget_violations==0)',
      collectGate,
    )
    .option(
      '--reporter <name>',
      'console, dot, list, json, junit, markdown, html or otlp (repeatable; default: console, json, junit, ' +
        'markdown); dot prints a mark per trial (· passed, F failed), list a line per finished cell, ' +
        'both on stdout and followed by the console summary',
      collectReporter,
    )
    .option('--out <dir>', 'folder the report files go to', 'reports')
    .option(
      '--otlp-endpoint <url>',
      'also POST the OTLP traces (the otlp reporter, otel-traces.json) to this OTLP/HTTP collector, ' +
        '/v1/traces added when the URL has no path; a failing collector exits 5, the reports written',
      parseOtlpEndpoint,
    )
    .option(
      '--otlp-all',
      'the otlp reporter writes every trial, passing ones too (the run then keeps every trial in full, ' +
        'as if --keep-failures had no limit); without it, the trials --keep-failures keeps',
    )
    .option('-t, --grep <pattern>', 'only scenarios whose name matches this regular expression', parseGrep)
    .option(
      '--workers <n>',
      'worker threads the trials run on, each trial isolated from the run (default: with code of yours, ' +
        'the available cores, one per 500 trials, at least 1; without, the first trials in this process, ' +
        'timed, and the rest on workers only if that is faster; 0: one after the other in one process, a copy ' +
        'of this one with the same Node flags (so --inspect reaches the agent), without isolation: ' +
        'process.exit, an unhandled rejection or an uncaught throw in agent code crashes its trial ' +
        'and a change to shared globals is undone; a synchronous loop past the trial timeout ends the run, with ' +
        'reports of what finished and the hung trial and exit 1; an exhausted heap or a native crash ends ' +
        'the run: this process writes the reports of what finished and of the trial it died in, judged ' +
        'crashed, and exits 1 (3 when it died between trials))',
      (v) => parseInteger(v, 0, 'a number of workers, 0 or more'),
    )
    .option(
      '--keep-failures <n>',
      'failing trials per cell kept in full, history and all; the rest are counted',
      (v) => parseInteger(v, 0, 'a number of trials, 0 or more'),
      DEFAULT_KEEP_FAILURES,
    )
    .option(
      '--shard <i/n>',
      'run only slice i of n of the trials (merge the shard reports with "faultline merge")',
      parseShardFlag,
    )
    .addOption(isolationOptions()[0]!)
    .addOption(isolationOptions()[1]!);
  return addHabitFlags(
    addLiveFlags(
      addAgentFlag(cmd, '').option(
        '--config-file <file>',
        'the project config file to read (default: ./faultline.config.ts if there is one; flags win over it)',
      ),
    ),
  );
}

/** The habits of vitest and Playwright: `--bail`, `--last-failed`, `--watch`, `--quiet`. */
function addHabitFlags(cmd: Command): Command {
  return cmd
    .option(
      '--bail <n>',
      'stop handing out trials once n trials have failed (the trials in progress finish); the partial ' +
        'reports are written, marked interrupted, exit 1 (0: never stop)',
      parseBail,
    )
    .option('--max-failures <n>', "the same as --bail (Playwright's name)", parseBail)
    .option(
      '--last-failed',
      "rerun only the scenarios of the failing cells in the last run's faultline.json in the out folder (--out)",
    )
    .option('--watch', 'run, then rerun the scenarios whose files, or the modules they import, change; Ctrl-C ends it')
    .option(
      '--quiet',
      'print only failures and the summary: no progress for what passed, the summary without the passing rows',
    );
}
