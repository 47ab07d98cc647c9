import { randomInt } from 'node:crypto';
import { realTimeNote } from './realTimeNote.js';
import { appendFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { RealClock, wallMs } from '../core/clock/RealClock.js';
import { DEFAULT_GATES, gatesPassed, withCoverageGate, withInfraGate, type Gate } from '../stats/gates.js';
import type { LiveSession } from './liveRun.js';
import { pricer, type PriceTable } from '../model/live/prices.js';
import { join } from 'node:path';
import { loadConfigs } from '../scenario/library.js';
import { matrixJobs, runMatrix, type RunResult } from '../runner/run.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import { prepareModelSource, saveRecordings, type ModelMode, type TrialRecording } from '../scenario/modelSource.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ScenarioProject } from '../scenario/project.js';
import { cellRuns } from '../runner/cellLabel.js';
import { notApplicable } from '../runner/notApplicable.js';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { defaultWorkers } from '../runner/pool/runOnWorkers.js';
import { inProcessWatchdog } from './inProcessWatchdog.js';
import { runsUserCode } from '../agent/kinds/runsUserCode.js';
import type { Shard } from '../runner/shard.js';
import { colorEnabled } from '../report/console.js';
import { renderMarkdownReport } from '../report/markdown.js';
import type { WallClock } from '../report/json.js';
import { isConsoleReporter, writeReports, type ReporterName } from '../report/write.js';
import { renderComparison } from './compareTable.js';
import { ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import { loadAll } from './loadAll.js';
import { preflight } from './preflight.js';
import type { ConfigOrigins } from '../config/configOrigins.js';
import { selectScenarios } from './selectScenarios.js';
import { assertPeersInstalled } from '../agent/kinds/optionalPeers.js';
import { isCi, type Io } from './io.js';
import { DEFAULT_REPORTERS, type SeedOption } from './options.js';
import { createProgress } from './progress.js';
import { DEFAULT_MAX_CONNECTIONS } from '../model/live/liveDefaults.js';
import { defaultLiveWorkers } from '../model/live/liveWorkers.js';
import { formatCost } from '../model/live/prices.js';

/** Everything `run` and `compare` need, flags already parsed and defaults not yet applied. */
export interface RunRequest {
  readonly scenarios: readonly string[];
  readonly configs: readonly string[];
  readonly k: number;
  readonly seed: SeedOption;
  readonly gates?: readonly Gate[];
  readonly reporters?: readonly ReporterName[];
  readonly outDir: string;
  readonly grep?: RegExp;
  /** `summary`: a table per configuration; `compare`: configurations side by side. */
  readonly view: 'summary' | 'compare';
  /** Where model answers come from (default `replay`: a scenario's cassette if it has one, else its scripted plan). */
  readonly modelMode?: ModelMode;
  /** Also write `compare.html`, the comparison as charts (compare writes it unless `--reporter` limits the reports). */
  readonly html?: boolean;
  /** Worker threads (default: the available cores); 0 runs the trials in this process. */
  readonly workers?: number;
  readonly keepFailures?: number;
  readonly shard?: Shard;
  readonly trialTimeout?: number;
  readonly workerHeap?: number;
  /** What came from the config file, so its refusals name the file and key. */
  readonly origins?: ConfigOrigins;
  /** `--bail N`: stop handing out trials once N have failed (0 or absent: never). */
  readonly bail?: number;
  /** `--last-failed`: only the scenarios of the failing cells in `<outDir>/faultline.json`. */
  readonly lastFailed?: boolean;
  /** The scenarios were typed on the command line (with `lastFailed`, they are filtered rather than replaced by the report's). */
  readonly scenariosTyped?: boolean;
  /** `--quiet`: only failures and the summary. */
  readonly quiet?: boolean;
  /** `--out` was typed (for where a refusal says the folder came from). */
  readonly outDirTyped?: boolean;
  /** A run `--watch` started for what changed: only the scenarios loaded from these files (absolute paths). */
  readonly onlyFiles?: readonly string[];
  /** `--live`: model requests in flight at once (default `DEFAULT_MAX_CONNECTIONS`). */
  readonly maxConnections?: number;
  /** `--live`: infra errors the gates allow (default 0). */
  readonly maxInfraErrors?: number;
  readonly liveRetries?: number;
  /** Stop once the model answers have cost this much. */
  readonly maxCost?: number;
  /** Prices per million tokens by model, over the shipped table (`faultline.config.ts` `prices`). */
  readonly prices?: PriceTable;
  /** The config file's `defaults` and `agents` (the matrix), applied to every scenario loaded. */
  readonly project?: ScenarioProject;
  /** The retry configurations were asked for (`--config`, `retryConfigs`), not the command's default. */
  readonly configsGiven?: boolean;
}

/**
 * The watchdog of a live trial's worker, unless `--trial-timeout` says otherwise: connections and the provider's
 * retries take real time.
 */
const LIVE_TRIAL_TIMEOUT_MS = 600_000;

// Seeds shown in a command line should be short enough to retype.
const RANDOM_SEED_MAX = 2 ** 31 - 1;

const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
};

/** How many of each cell's trials a shard runs, for the progress lines. */
function shardCellSize(
  scenarios: readonly Scenario[],
  configs: readonly ExecutionConfig[],
  k: number,
  shard: Shard,
): (config: string, scenario: string) => number {
  const sizes = new Map<string, number>();
  for (const job of matrixJobs(scenarios.length, configs.length, k, shard, cellRuns(scenarios))) {
    const key = `${configs[job.config]!.name}\u0000${scenarios[job.scenario]!.name}`;
    sizes.set(key, (sizes.get(key) ?? 0) + 1);
  }
  return (config, scenario) => sizes.get(`${config}\u0000${scenario}`) ?? 0;
}

/**
 * Loads, runs and reports: the reports are written (atomically) whatever the outcome, even
 * after Ctrl-C, and the exit code says whether every gate held.
 */
export async function executeRun(request: RunRequest, io: Io): Promise<ExitCode> {
  const seed = request.seed === 'random' ? randomInt(0, RANDOM_SEED_MAX) : request.seed;
  if (request.seed === 'random') io.stderr.write(`faultline: random seed ${seed} (rerun with --seed ${seed})\n`);
  const given = request.gates && request.gates.length > 0 ? withCoverageGate(request.gates) : DEFAULT_GATES;
  // A live run's gates fail closed: a trial the provider failed is not a pass.
  const gates =
    request.modelMode === 'live' || request.modelMode === 'record'
      ? withInfraGate(given, request.maxInfraErrors ?? 0)
      : given;
  const reporters = request.reporters && request.reporters.length > 0 ? request.reporters : DEFAULT_REPORTERS;

  // Listening before loading: a stop signal during a slow load still ends in (empty) reports and its exit code.
  const interrupt = listenForInterrupt(io);
  try {
    const code = await runAndReport(request, { seed, gates, reporters }, interrupt.signal, io);
    return code === ExitCode.Interrupted ? interrupt.exitCode() : code;
  } finally {
    interrupt.dispose();
  }
}

interface Resolved {
  readonly seed: number;
  readonly gates: readonly Gate[];
  readonly reporters: readonly ReporterName[];
}

async function runAndReport(
  request: RunRequest,
  { seed, gates, reporters }: Resolved,
  signal: AbortSignal,
  io: Io,
): Promise<ExitCode> {
  const loaded = await loadRunInputs(request, gates, reporters, io);
  // Nothing to rerun (said on stdout): the previous reports stay as they are.
  if (loaded === undefined) return ExitCode.Ok;
  const { scenarios, configs, modelMode } = loaded;
  const progress = runProgress(request, reporters, scenarios, configs, io);
  // --bail: its own stop, beside the signals', so the exit code can tell the two apart.
  const bail = new AbortController();
  let failedTrials = 0;
  const onTrial = (trial: Parameters<typeof progress.onTrial>[0], done: number, total: number): void => {
    progress.onTrial(trial, done, total);
    if (trial.status !== 'failed' || request.bail === undefined || request.bail === 0) return;
    if (++failedTrials === request.bail) bail.abort();
  };
  const clock = new RealClock();
  const startedAt = new Date(clock.now()).toISOString();
  const started = wallMs();
  const trials = matrixJobs(scenarios.length, configs.length, request.k, request.shard, cellRuns(scenarios)).length;
  const price = pricer(request.prices);
  // --max-cost stops the run as an interrupt does: no new trial starts, the reports cover the rest.
  const spend = new AbortController();
  const stop = AbortSignal.any([signal, spend.signal]);
  let spent = 0;
  const toModel = modelMode === 'live' || modelMode === 'record';
  const recordings: TrialRecording[] = [];
  let live: LiveSession | undefined;
  let run: RunResult;
  // --workers 0 with the user's code in this thread: a trial that never gives it back still ends the run, with its reports.
  const watchdog = await inProcessWatchdog(request, scenarios, { gates, reporters, io }, () => ({
    startedAt,
    finishedAt: new Date(clock.now()).toISOString(),
    durationMs: Math.round(wallMs() - started),
  }));
  try {
    // --record is a live run (one gateway, one per-trial recording) whose recordings become the scenarios' cassettes.
    if (toModel) live = await startLive(request, modelMode, scenarios, price, spend, io);
    const session = live;
    run = await runMatrix({
      scenarios,
      configs,
      k: request.k,
      seed,
      signal: AbortSignal.any([stop, bail.signal]),
      onTrial: (trial, done, total) => {
        spent += trial.cost ?? 0;
        if (trial.recording !== undefined)
          recordings.push({
            scenario: trial.scenario,
            config: trial.config,
            trialIndex: trial.trialIndex,
            file: trial.recording,
          });
        if (request.maxCost !== undefined && spent >= request.maxCost && !spend.signal.aborted) spend.abort();
        onTrial(trial, done, total);
        const line = session?.progressLine(done, total, spent);
        if (line !== undefined) io.stderr.write(`${line}\n`);
      },
      price: (trial) =>
        price(trial.model ?? scenarios.find((s) => s.name === trial.scenario)?.model?.name, trial.stats.tokens),
      ...matrixIsolation(request, toModel, scenarios, trials),
      ...(live && { live: live.run }),
      ...(watchdog && { hereWatch: watchdog.hereWatch }),
    });
  } finally {
    watchdog?.dispose();
    progress.finish();
    await live?.close();
  }
  if (spend.signal.aborted) {
    // What the provider was paid, trials that did not finish included: how far over the limit it went.
    run = {
      ...run,
      stopped: { reason: 'max-cost', limit: request.maxCost!, spent: Math.max(spent, live?.spent() ?? 0) },
    };
  }
  const wallClock = {
    startedAt,
    finishedAt: new Date(clock.now()).toISOString(),
    durationMs: Math.round(wallMs() - started),
  };
  const cassettes =
    modelMode === 'record'
      ? await saveRecordings(
          scenarios,
          configs.map((c) => c.name),
          recordings,
        )
      : [];
  if (cassettes.length > 0) io.stdout.write(`cassettes: ${cassettes.map(shown).join(', ')}\n`);
  const real = scenarios.filter((s) => s.agent.kind === 'command').map((s) => s.name);
  if (real.length > 0) io.stdout.write(`${realTimeNote(real)}\n`);
  return reportRun(
    run,
    {
      ...request,
      gates,
      reporters,
      wallClock,
      ...(bail.signal.aborted && !signal.aborted && { bailedAfter: request.bail! }),
    },
    io,
  );
}

interface RunInputs {
  readonly scenarios: readonly Scenario[];
  readonly configs: readonly ExecutionConfig[];
  readonly modelMode: ModelMode;
}

/**
 * The scenarios and configurations, checked (peers, preflight) and their model sources ready; undefined when
 * `--last-failed` finds nothing to rerun.
 */
async function loadRunInputs(
  request: RunRequest,
  gates: readonly Gate[],
  reporters: readonly ReporterName[],
  io: Io,
): Promise<RunInputs | undefined> {
  const origins = request.origins;
  const from =
    origins &&
    ((ref: string): string | undefined => {
      const o = origins.refs.get(ref);
      return o === undefined ? undefined : `${origins.file}: ${o}`;
    });
  const scenarios = await selectScenarios(request, from, io);
  if (scenarios.length === 0) return undefined;
  const configs = await loadAll(request.configs, loadConfigs, 'configuration', from);
  if (request.configsGiven === true) {
    const note = notApplicable(
      scenarios,
      configs,
      origins?.configs === true ? `${origins.file}: retryConfigs` : '--config',
    );
    // Refused when asked for on the command line; a config file's retryConfigs are the project's defaults,
    // which a run of only such agents leaves aside with the note.
    if (note.refuse && origins?.configs !== true) throw new FaultlineError(FaultlineErrorCode.Usage, note.message);
    if (note.message !== '') io.stderr.write(`faultline: ${note.message}\n`);
  }
  await assertPeersInstalled(scenarios, configs);
  await preflight({
    gates,
    k: request.k,
    scenarios,
    configs,
    outDir: request.outDir,
    writesFiles: request.html === true || reporters.some((r) => !isConsoleReporter(r)),
    stepSummary: io.env['GITHUB_STEP_SUMMARY'],
    ...(origins?.gates && { gatesFrom: origins.file }),
    ...(origins?.k && { kFrom: origins.file }),
    ...(origins?.outDir && { outDirFrom: origins.file }),
  });
  const modelMode = request.modelMode ?? 'replay';
  for (const s of scenarios) await prepareModelSource(s, modelMode, io.env);
  return { scenarios, configs, modelMode };
}

function runProgress(
  request: RunRequest,
  reporters: readonly ReporterName[],
  scenarios: readonly Scenario[],
  configs: readonly ExecutionConfig[],
  io: Io,
): ReturnType<typeof createProgress> {
  // The dot and list reporters show the run as it goes on stdout, as vitest's and Playwright's do; else the progress goes to stderr.
  const onStdout = reporters.includes('dot') ? 'dots' : reporters.includes('list') ? 'lines' : undefined;
  const progressStream = onStdout === undefined ? io.stderr : io.stdout;
  return createProgress({
    stream: progressStream,
    mode: onStdout ?? (io.stderr.isTTY === true && !isCi(io.env) ? 'bar' : 'lines'),
    k: request.k,
    ...(request.shard && { cellSize: shardCellSize(scenarios, configs, request.k, request.shard) }),
    color: colorEnabled(progressStream, io.env),
    onlyFailing: request.quiet === true,
  });
}

/** Starts the model gateway of a `--live` or `--record` run. */
async function startLive(
  request: RunRequest,
  modelMode: ModelMode,
  scenarios: readonly Scenario[],
  price: ReturnType<typeof pricer>,
  spend: AbortController,
  io: Io,
): Promise<LiveSession> {
  // Loaded on first use, as the html writer below: a run without --live never needs the model gateway.
  const { startLiveRun } = await import('./liveRun.js');
  return startLiveRun(scenarios, io.env, {
    maxConnections: request.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    recordDir: join(request.outDir, 'live'),
    ...(request.liveRetries !== undefined && { retries: request.liveRetries }),
    ...(modelMode === 'record' && { reuseAnswers: true }),
    // Priced as each answer arrives, in the gateway: trials in flight cannot spend past it.
    ...(request.maxCost !== undefined && {
      maxCost: { limit: request.maxCost, price: (model, usage) => price(model, usage), onLimit: () => spend.abort() },
    }),
  });
}

/** runMatrix's workers, and the rest of how its trials are isolated. */
function matrixIsolation(
  request: RunRequest,
  toModel: boolean,
  scenarios: readonly Scenario[],
  trials: number,
): Pick<Parameters<typeof runMatrix>[0], 'workers' | 'keepFailures' | 'shard' | 'isolation'> {
  return {
    // Live (and record) trials run on workers, one per connection by default: the key and the
    // connection limit stay in the gateway, in this thread.
    workers:
      request.workers ??
      (toModel
        ? defaultLiveWorkers(request.maxConnections ?? DEFAULT_MAX_CONNECTIONS, trials, availableParallelism())
        : workersFor(scenarios, request, trials)),
    ...(request.keepFailures !== undefined && { keepFailures: request.keepFailures }),
    ...(request.shard && { shard: request.shard }),
    isolation: {
      // A live trial waits on the wall clock for connections and the provider's retries: its watchdog waits longer.
      ...(request.trialTimeout !== undefined
        ? { trialTimeoutMs: request.trialTimeout }
        : toModel && { trialTimeoutMs: LIVE_TRIAL_TIMEOUT_MS }),
      ...(request.workerHeap !== undefined && { heapMb: request.workerHeap }),
    },
  };
}

export interface ReportRequest {
  readonly outDir: string;
  readonly view: 'summary' | 'compare';
  readonly html?: boolean;
  readonly gates: readonly Gate[];
  readonly reporters: readonly ReporterName[];
  readonly wallClock: WallClock;
  readonly quiet?: boolean;
  /** The run stopped because this many trials failed (`--bail`), not for a signal. */
  readonly bailedAfter?: number;
}

/** Writes a finished run's reports, prints its summary, and says what the exit code is: for `run`, `compare` and `merge`. */
export async function reportRun(run: RunResult, request: ReportRequest, io: Io): Promise<ExitCode> {
  const { gates, reporters, wallClock } = request;
  const color = colorEnabled(io.stdout, io.env);
  const compare = request.view === 'compare';
  const written = await writeReports(run, {
    outDir: request.outDir,
    // The comparison replaces the console summary; the files are the same either way.
    reporters: compare ? reporters.filter((r) => !isConsoleReporter(r)) : reporters,
    wallClock,
    gates,
    color,
    quiet: request.quiet === true,
  });
  if (compare && reporters.some(isConsoleReporter))
    io.stdout.write(renderComparison(run, { gates: written.gates, color }));
  else if (written.console !== undefined) io.stdout.write(written.console);

  const summaryFile = io.env['GITHUB_STEP_SUMMARY'];
  if (summaryFile) await appendFile(summaryFile, `${renderMarkdownReport(run, { gates: written.gates })}\n`);

  const html =
    request.html === true
      ? [await (await import('../report/html/writeCompareHtml.js')).writeCompareHtml(run, request.outDir)]
      : [];
  const files = [...Object.values(written.paths), ...html].map(shown);
  if (files.length > 0) io.stdout.write(`\nreports: ${files.join(', ')}\n`);
  const finished = run.cells.reduce((a, c) => a + c.metrics.trials + (c.metrics.infraErrors ?? 0), 0);
  if (run.interrupted && request.bailedAfter !== undefined) {
    // A bail is a failure, not a stop signal: the exit code is a failing run's.
    io.stderr.write(
      `faultline: stopped after ${request.bailedAfter} failing ${request.bailedAfter === 1 ? 'trial' : 'trials'} (--bail ` +
        `${request.bailedAfter}); the reports cover the ${finished} trials that finished\n`,
    );
    return ExitCode.GateFailed;
  }
  if (run.stopped) {
    // Stopped at the spending limit: the gates cannot pass on a run that did not finish.
    io.stderr.write(
      `faultline: stopped at --max-cost ${run.stopped.limit} (${formatCost(run.stopped.spent)} spent); ` +
        `the reports cover the ${finished} trials that finished\n`,
    );
    return ExitCode.GateFailed;
  }
  if (run.interrupted) {
    io.stderr.write(`faultline: interrupted; the reports cover the ${finished} trials that finished\n`);
    return ExitCode.Interrupted;
  }
  return gatesPassed(written.gates) ? ExitCode.Ok : ExitCode.GateFailed;
}

/**
 * The default worker count. A run of no code of the user's (the built-in library's scripted
 * agents on built-in services, no watchdog or heap limit asked for) needs no isolation: its
 * first trials run in this process, timed, and the rest go to workers only if their start-up
 * is repaid (`auto`, see `workersWorthIt`), so the default never makes a run slower than in
 * process. The user's code is always isolated: the available cores, one per 500 trials.
 */
function workersFor(
  scenarios: readonly Scenario[],
  request: { readonly trialTimeout?: number; readonly workerHeap?: number },
  trials: number,
): number | 'auto' {
  const isolated = runsUserCode(scenarios) || request.trialTimeout !== undefined || request.workerHeap !== undefined;
  return isolated ? defaultWorkers(trials) : 'auto';
}
