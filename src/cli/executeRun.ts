import { randomInt } from 'node:crypto';
import { realTimeNote } from './realTimeNote.js';
import { RealClock, wallMs } from '../core/clock/RealClock.js';
import { DEFAULT_GATES, withCoverageGate, withInfraGate, type Gate } from '../stats/gates.js';
import type { LiveSession } from './liveRun.js';
import { pricer } from '../model/live/prices.js';
import { matrixJobs, runMatrix, type RunOptions, type RunResult, type TrialJob } from '../runner/run.js';
import { journalWriter } from '../runner/runJournal.js';
import { saveRecordings, type TrialRecording } from '../scenario/modelSource.js';
import { cellRuns } from '../runner/cellLabel.js';
import type { ReporterName } from '../report/write.js';
import { ExitCode } from './exitCodes.js';
import { inProcessWatchdog } from './inProcessWatchdog.js';
import { listenForInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import { DEFAULT_REPORTERS } from './options.js';
import { loadRunInputs, type RunInputs } from './loadRunInputs.js';
import { matrixIsolation, startLive } from './matrixIsolation.js';
import { reportRun, shown } from './reportRun.js';
import { runProgress } from './runProgress.js';
import { leaveWithSupervisor, SUPERVISED_ENV, supervisedRunOf } from './supervisedEnv.js';
import { superviseRun, supervises } from './superviseRun.js';
import type { RunRequest } from './runRequest.js';

// Seeds shown in a command line should be short enough to retype.
const RANDOM_SEED_MAX = 2 ** 31 - 1;

/**
 * Loads, runs and reports: the reports are written (atomically) whatever the outcome, even
 * after Ctrl-C, and the exit code says whether every gate held.
 */
export async function executeRun(request: RunRequest, io: Io): Promise<ExitCode> {
  // The process a supervisor started runs the seed the supervisor drew (and said).
  const supervised = supervisedRunOf(io.env);
  // Read once: a process the agents start (a command agent, a nested faultline) is no copy of a supervisor's.
  if (supervised !== undefined && io.ownProcess === true) {
    delete process.env[SUPERVISED_ENV];
    leaveWithSupervisor();
  }
  const seed = supervised?.seed ?? (request.seed === 'random' ? randomInt(0, RANDOM_SEED_MAX) : request.seed);
  if (request.seed === 'random' && supervised === undefined)
    io.stderr.write(`faultline: random seed ${seed} (rerun with --seed ${seed})\n`);
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
    // --workers 0 from the binary: the trials run in a copy of this process, which this one outlives (superviseRun).
    if (supervised === undefined && supervises(request, io) && !interrupt.signal.aborted)
      return await superviseRun(request, { seed, gates, reporters }, interrupt, io);
    const code = await runAndReport(
      request,
      { seed, gates, reporters, ...(supervised && { journal: supervised.journal }) },
      interrupt.signal,
      io,
    );
    return code === ExitCode.Interrupted ? interrupt.exitCode() : code;
  } finally {
    interrupt.dispose();
  }
}

interface Resolved {
  readonly seed: number;
  readonly gates: readonly Gate[];
  readonly reporters: readonly ReporterName[];
  /** Under a supervisor: the journal each trial's start and end is appended to. */
  readonly journal?: string;
}

async function runAndReport(request: RunRequest, resolved: Resolved, signal: AbortSignal, io: Io): Promise<ExitCode> {
  const { gates, reporters } = resolved;
  const loaded = await loadRunInputs(request, gates, reporters, io);
  // Nothing to rerun (said on stdout): the previous reports stay as they are.
  if (loaded === undefined) return ExitCode.Ok;
  const clock = new RealClock();
  const startedAt = new Date(clock.now()).toISOString();
  const started = wallMs();
  // --workers 0 with the user's code in this thread: a trial that never gives it back still ends the run, with its reports.
  const watchdog = await inProcessWatchdog(request, loaded.scenarios, { gates, reporters, io }, () => ({
    startedAt,
    finishedAt: new Date(clock.now()).toISOString(),
    durationMs: Math.round(wallMs() - started),
  }));
  let trials: Awaited<ReturnType<typeof runTrials>>;
  try {
    trials = await runTrials(
      request,
      loaded,
      resolved,
      { signal, hereWatch: watchdog?.hereWatch, journal: resolved.journal },
      io,
    );
  } finally {
    watchdog?.dispose();
  }
  const { run, recordings, bailed } = trials;
  const wallClock = {
    startedAt,
    finishedAt: new Date(clock.now()).toISOString(),
    durationMs: Math.round(wallMs() - started),
  };
  const { scenarios, configs, modelMode } = loaded;
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
      ...(bailed && !signal.aborted && { bailedAfter: request.bail! }),
    },
    io,
  );
}

/**
 * The matrix's trials, with their progress, `--bail` and `--max-cost` (each its own stop beside the signals', so the
 * exit code can tell them apart), and the live gateway of a `--live` or `--record` run.
 */
async function runTrials(
  request: RunRequest,
  { scenarios, configs, modelMode }: RunInputs,
  { seed, reporters }: Resolved,
  {
    signal,
    hereWatch,
    journal,
  }: {
    readonly signal: AbortSignal;
    readonly hereWatch: RunOptions['hereWatch'];
    readonly journal?: string | undefined;
  },
  io: Io,
): Promise<{ readonly run: RunResult; readonly recordings: TrialRecording[]; readonly bailed: boolean }> {
  // Under a supervisor: each trial's start and end, on disk before the next line of agent code runs. Trials run here
  // one after the other, so a trial that finishes is the one that started last.
  const note = journal === undefined ? undefined : journalWriter(journal);
  let running: TrialJob | undefined;
  const progress = runProgress(request, reporters, scenarios, configs, io);
  const bail = new AbortController();
  let failedTrials = 0;
  const trials = matrixJobs(scenarios.length, configs.length, request.k, request.shard, cellRuns(scenarios)).length;
  const price = pricer(request.prices);
  // --max-cost stops the run as an interrupt does: no new trial starts, the reports cover the rest.
  const spend = new AbortController();
  let spent = 0;
  const toModel = modelMode === 'live' || modelMode === 'record';
  const recordings: TrialRecording[] = [];
  let live: LiveSession | undefined;
  let run: RunResult;
  try {
    // --record is a live run (one gateway, one per-trial recording) whose recordings become the scenarios' cassettes.
    if (toModel) live = await startLive(request, modelMode, scenarios, price, spend, io);
    const session = live;
    run = await runMatrix({
      scenarios,
      configs,
      k: request.k,
      seed,
      signal: AbortSignal.any([signal, spend.signal, bail.signal]),
      ...(note && { onTrialStart: (job: TrialJob) => note({ kind: 'start', job: (running = job) }) }),
      onTrial: (trial, done, total) => {
        if (note && running) note({ kind: 'trial', job: running, trial });
        spent += trial.cost ?? 0;
        if (trial.recording !== undefined)
          recordings.push({
            scenario: trial.scenario,
            config: trial.config,
            trialIndex: trial.trialIndex,
            file: trial.recording,
          });
        if (request.maxCost !== undefined && spent >= request.maxCost && !spend.signal.aborted) spend.abort();
        progress.onTrial(trial, done, total);
        if (trial.status === 'failed' && request.bail !== undefined && request.bail !== 0)
          if (++failedTrials === request.bail) bail.abort();
        const line = session?.progressLine(done, total, spent);
        if (line !== undefined) io.stderr.write(`${line}\n`);
      },
      price: (trial) =>
        price(trial.model ?? scenarios.find((s) => s.name === trial.scenario)?.model?.name, trial.stats.tokens),
      ...matrixIsolation(request, toModel, scenarios, trials),
      ...(live && { live: live.run }),
      ...(hereWatch && { hereWatch }),
    });
  } finally {
    progress.finish();
    await live?.close();
  }
  if (spend.signal.aborted) {
    // What the provider was paid, trials that did not finish included: how far over the limit it went.
    const stopped = {
      reason: 'max-cost' as const,
      limit: request.maxCost!,
      spent: Math.max(spent, live?.spent() ?? 0),
    };
    run = { ...run, stopped };
  }
  return { run, recordings, bailed: bail.signal.aborted };
}
