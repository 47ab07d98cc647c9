import { overrideOf } from '../scenario/scenarioOverride.js';
import { describeBehaviour } from '../model/behaviours.js';
import type { FaultPlan } from '../faults/plan.js';
import { asExecutionConfig, type ExecutionConfig, type ExecutionConfigLike } from '../runtime/executionConfig.js';
import { withAddedFaults } from '../scenario/addedFaults.js';
import { CellTally } from '../stats/CellTally.js';
import { ruleInfos } from '../stats/coverage.js';
import { runFigures } from '../stats/runFigures.js';
import type { Scenario } from '../scenario/scenario.js';
import { matrixAgentOf, refOf } from '../scenario/library.js';
import { cellColumns, cellLabeller, cellRuns } from './cellLabel.js';
import { GlobalsWatch } from './pool/globalsFingerprint.js';
import { guardInProcess } from './inProcessGuard.js';
import { runsUserCode } from '../agent/kinds/runsUserCode.js';
import { runOnWorkers, type IsolationOptions } from './pool/runOnWorkers.js';
import { workersWorthIt } from './pool/workersWorthIt.js';
import { wallMs } from '../core/clock/RealClock.js';
import { matrixJobs, type TrialJob } from './matrixJobs.js';
import type { Shard } from './shard.js';
import { runTrial, runTrialSummary, summarise, type TrialOptions, type TrialSummary } from './trial.js';
import { useLiveRun, type LiveRun } from '../scenario/modelSource.js';
import { recordingFile } from './trial/recordingFile.js';
import { triggerText } from '../scenario/agentCrash.js';
import { TrialInProgress, type HungRun } from './trialInProgress.js';

export type { Cell, CellRefs, VerdictGroup } from '../stats/CellTally.js';
export type { Shard } from './shard.js';
export { matrixJobs, type TrialJob } from './matrixJobs.js';
export type { HungRun } from './trialInProgress.js';

import type { RunResult } from '../stats/runResult.js';

export type { RunResult };

export interface RunOptions {
  readonly scenarios: readonly Scenario[];
  /** Configurations of any kind; a bare `RetryConfig` is the reference runtime with no extra layers. */
  readonly configs: readonly ExecutionConfigLike[];
  readonly k: number;
  readonly seed: number;
  /** Aborting stops after the trial in progress (with workers: at once); the result holds every finished trial. */
  readonly signal?: AbortSignal;
  readonly onTrial?: (trial: TrialSummary, done: number, total: number) => void;
  /** Told as a trial starts in this process (`--workers 0`), before its agent runs: a supervisor's journal names it if the process dies. */
  readonly onTrialStart?: (job: TrialJob) => void;
  /**
   * Worker threads to run the trials on, each trial isolated from the others and from the run
   * (see `pool/`). Workers load scenarios by the file they came from, so every scenario must
   * come from `loadScenarios`; 0 or absent runs the trials here, one after the other, and then
   * scenarios may be objects built in code. `auto`: the first trials run here and are timed,
   * and the rest go to workers only if that finishes sooner (`workersWorthIt`); for trials
   * that need no isolation from the run. The count never changes a result, only how fast it comes.
   */
  readonly workers?: number | 'auto';
  /** Failing trials each cell keeps in full (history and all); the rest are counted. Default: every trial is kept. */
  readonly keepFailures?: number;
  /** Run only this slice of the matrix; `faultline merge` puts the slices back together. */
  readonly shard?: Shard;
  readonly isolation?: IsolationOptions;
  /**
   * Fault rules appended to every scenario's own plan (`faultline sweep`): after them, so a
   * scenario's rules keep their precedence and their rng draws.
   */
  readonly addedFaults?: FaultPlan;
  /**
   * A `--live` run: every model request goes to its gateway (see `model/live`), each trial's
   * exchanges are recorded into `recordDir`, and `price` gives each trial's cost from its tokens.
   */
  readonly live?: LiveRun;
  /** What a trial's model answers cost, from its tokens and model (the price table); undefined when unpriced. */
  readonly price?: (trial: TrialSummary) => number | undefined;
  /**
   * Told, while trials run in this process, how to judge the run so far with the trial in
   * progress hung (`HungRun`), and `undefined` when none runs here any more: for a watchdog that
   * must end a run whose agent holds the thread (`--workers 0`).
   */
  readonly hereWatch?: (hung: HungRun | undefined) => void;
}

/** Trials run in process before any is timed (`workers: 'auto'`). */
const CALIBRATION_WARM = 3;
/** Then trials are timed until this many and this long, or this long at most. */
const CALIBRATION_TRIALS = 10;
const CALIBRATION_MIN_MS = 40;
const CALIBRATION_MAX_MS = 200;

export async function runMatrix(options: RunOptions): Promise<RunResult> {
  const { scenarios, seed, k, signal, onTrial, keepFailures, shard } = options;
  // Refs first: a loaded configuration's file is known by the object the loader returned.
  const configRefs = options.configs.map((c) => refOf(c));
  const configs = options.configs.map(asExecutionConfig);
  // In this process the rules are added here; workers add them to the scenarios they load.
  const planned = scenarios.map((s) => withAddedFaults(s, options.addedFaults));
  const tallies = cellTallies(scenarios, configs, configRefs, planned, keepFailures);
  const jobs = matrixJobs(scenarios.length, configs.length, k, shard, cellRuns(scenarios));
  let done = 0;
  const take = (job: TrialJob, summary: TrialSummary): void => {
    const tally = tallies[job.cell]!;
    const cost = options.price?.(summary);
    // A trial carries its cell's label, as the cell does: the agent, when that is what varies.
    const trial = {
      ...summary,
      ...(summary.config !== tally.config && { config: tally.config }),
      ...(cost !== undefined && { cost }),
    };
    tally.add(trial);
    onTrial?.(trial, ++done, jobs.length);
  };
  // A passing trial's history is dropped at once when only failures are kept: that keeps memory flat.
  const withHistory = (status: TrialSummary['status']): boolean => keepFailures === undefined || status === 'failed';
  // A live run's recordings are written beside its report: the trial hands them over, the run writes them.
  const keepRecording = options.live && recordingFile(options.live.recordDir);
  const trialOf = (job: TrialJob): TrialOptions => {
    const tally = tallies[job.cell]!;
    return {
      scenario: planned[job.scenario]!,
      config: configs[job.config]!,
      runSeed: seed,
      trialIndex: job.trialIndex,
      refs: tally.refs,
      ...(keepRecording && { keepRecording }),
    };
  };

  const result = (interrupted: boolean): RunResult => resultOf(options, configs, tallies, interrupted);
  const here = options.hereWatch && hereWatch(options.hereWatch, tallies, result);
  const runHere = hereRunner(jobs, planned, trialOf, withHistory, take, options, here);

  const given = options.workers ?? 0;
  let { interrupted, from, workers } =
    given === 'auto' ? await calibrated(runHere, jobs.length) : { interrupted: false, from: 0, workers: given };
  if (interrupted) {
    // Stopped while timing the first trials: the cells hold what finished.
  } else if (workers > 0) {
    interrupted = await runOnWorkers({
      scenarios,
      configs,
      jobs: jobs.slice(from),
      runSeed: seed,
      workers,
      keepFailures: keepFailures ?? null,
      ...(options.addedFaults && { addedFaults: options.addedFaults }),
      ...(options.live && { live: options.live }),
      refs: (job) => tallies[job.cell]!.refs,
      ...(signal && { signal }),
      ...(options.isolation && { isolation: options.isolation }),
      onTrial: take,
      // A trial whose worker died is judged here with the end the pool saw, by the same trial function.
      lost: async (job, end, partial) =>
        summarise(await runTrial({ ...trialOf(job), lost: end, ...(partial && { partial }) }), true),
    });
  } else {
    interrupted = (await runHere(from, () => true)) < 0;
  }

  return result(interrupted);
}

/** The run's result from its cells' tallies. */
export function resultOf(
  { scenarios, seed, k, keepFailures, shard }: RunOptions,
  configs: readonly ExecutionConfig[],
  tallies: readonly CellTally[],
  interrupted: boolean,
): RunResult {
  // A scenario run by several matrix agents is one scenario; its cells are told apart by their labels.
  return finishRun({
    seed,
    k,
    scenarios: [...new Set(scenarios.map((s) => s.name))],
    configs: cellColumns(scenarios, configs),
    cells: tallies.filter((t) => t.trials > 0).map((t) => t.cell()),
    interrupted,
    keepFailures: keepFailures ?? null,
    ...(shard && { shard }),
  });
}

/** What `hereRunner` tells a watchdog (`RunOptions.hereWatch`): the trial in progress, and how to judge the run with it hung. */
interface HereWatch {
  readonly progress: TrialInProgress;
  readonly tell: (hung: HungRun | undefined) => void;
  readonly hung: HungRun;
}

function hereWatch(
  tell: (hung: HungRun | undefined) => void,
  tallies: readonly CellTally[],
  result: (interrupted: boolean) => RunResult,
): HereWatch {
  const progress = new TrialInProgress();
  const hung: HungRun = (message) => {
    const trial = progress.current();
    let judged = false;
    try {
      const lost = progress.judgeHung(message);
      if (lost !== undefined) {
        const tally = tallies[lost.job.cell]!;
        tally.add(lost.trial.config === tally.config ? lost.trial : { ...lost.trial, config: tally.config });
        judged = true;
      }
    } catch {
      // What the agent broke (its world's snapshot, a prototype) keeps it from being judged: the reports name it all the same.
    }
    // The run ends here: the trials after this one never ran.
    return { run: result(true), ...(trial && { trial }), judged };
  };
  return { progress, tell, hung };
}

/** Runs the jobs here, one after the other, while `more` says so; resolves to how many ran, or -1 when the signal stopped them. */
function hereRunner(
  jobs: readonly TrialJob[],
  planned: readonly Scenario[],
  trialOf: (job: TrialJob) => TrialOptions,
  withHistory: (status: TrialSummary['status']) => boolean,
  take: (job: TrialJob, summary: TrialSummary) => void,
  { live, signal, onTrialStart }: Pick<RunOptions, 'live' | 'signal' | 'onTrialStart'>,
  here: HereWatch | undefined,
): (from: number, more: (ran: number) => boolean) => Promise<number> {
  // Agents run in this process share its globals: a trial that changes them fails, and the change is undone. Only
  // code of the user's can change them: a run of scripted agents on built-in services skips the check (≈ 23 µs a trial).
  const watchGlobals = runsUserCode(planned);
  let globals: GlobalsWatch | undefined;
  return async (from: number, more: (ran: number) => boolean): Promise<number> => {
    useLiveRun(live);
    if (watchGlobals) globals ??= new GlobalsWatch();
    // The user's code in this process: its exit and its unhandled errors crash its trial, not the CLI.
    const guard = watchGlobals ? guardInProcess() : undefined;
    let i = from;
    here?.tell(here.hung);
    try {
      for (; i < jobs.length && more(i - from); i++) {
        const job = jobs[i]!;
        if (signal?.aborted) return -1;
        onTrialStart?.(job);
        let trial = await runTrialSummary(here ? here.progress.start(job, trialOf(job)) : trialOf(job), withHistory);
        here?.progress.end();
        const changed = globals?.changed();
        if (changed !== undefined) globals?.restore();
        const escaped = await guard?.take();
        if (changed !== undefined || escaped !== undefined) {
          const message =
            escaped ??
            `the agent changed the process's shared globals (${changed}); faultline undid it, but ` +
              `agents should not (with workers, the worker is replaced)`;
          trial = await runTrialSummary({ ...trialOf(job), lost: { kind: 'crashed', message } }, withHistory);
        }
        take(job, trial);
      }
    } finally {
      here?.tell(undefined);
      guard?.release();
      useLiveRun(undefined);
    }
    return i - from;
  };
}

/** One tally per cell, configuration-major as the jobs are numbered: each knows its label, its refs and its rules. */
export function cellTallies(
  scenarios: readonly Scenario[],
  configs: readonly ExecutionConfig[],
  configRefs: readonly string[],
  planned: readonly Scenario[],
  keepFailures: number | undefined,
): CellTally[] {
  const label = cellLabeller(scenarios, configs);
  return configs.flatMap((config, c) =>
    scenarios.map((scenario, s) => {
      const agent = matrixAgentOf(scenario)?.name;
      const behaviour = overrideOf(scenario)?.behaviour;
      const refs = {
        scenario: refOf(scenario),
        config: configRefs[c]!,
        ...(agent !== undefined && { agent }),
        ...(behaviour !== undefined && { behaviour: describeBehaviour(behaviour) }),
      };
      return new CellTally(
        scenario.name,
        label(scenario, config.name),
        refs,
        keepFailures,
        ruleInfos(planned[s]!.faults, scenario.crash?.agent && triggerText(scenario.crash.agent)),
        scenario.agent.kind === 'command' ? 'real' : 'virtual',
      );
    }),
  );
}

/**
 * `workers: 'auto'`: runs the first trials here, times them, and says whether the rest are worth
 * workers. `from` is where the rest start; `interrupted` when the signal stopped the first ones.
 */
async function calibrated(
  runHere: (from: number, more: (ran: number) => boolean) => Promise<number>,
  jobs: number,
): Promise<{ interrupted: boolean; from: number; workers: number }> {
  // The first trials pay for warming up (modules loaded on first use, code not yet optimised): they are not timed.
  const warm = await runHere(0, (ran) => ran < CALIBRATION_WARM);
  let startedAt = 0;
  const timed =
    warm < 0
      ? -1
      : await runHere(warm, (ran) => {
          if (ran === 0) startedAt = wallMs();
          const ms = wallMs() - startedAt;
          return ms < CALIBRATION_MAX_MS && (ran < CALIBRATION_TRIALS || ms < CALIBRATION_MIN_MS);
        });
  const interrupted = timed < 0;
  const from = interrupted ? jobs : warm + timed;
  return {
    interrupted,
    from,
    workers: timed > 0 && from < jobs ? workersWorthIt((wallMs() - startedAt) / timed, jobs - from) : 0,
  };
}

/** A run from its cells: the per-configuration figures and the cost are computed from the cells' metrics. */
export function finishRun(run: Omit<RunResult, 'byConfig' | 'cost'>): RunResult {
  return { ...run, ...runFigures(run) };
}
