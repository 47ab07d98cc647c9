import { availableParallelism } from 'node:os';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import type { ExecutionConfig } from '../../runtime/executionConfig.js';
import type { CellRefs } from '../../stats/CellTally.js';
import { matrixAgentOf, projectOf, sourceOf } from '../../scenario/library.js';
import { overrideOf } from '../../scenario/scenarioOverride.js';
import { runsUserCode } from '../../agent/kinds/runsUserCode.js';
import type { TrialJob } from '../matrixJobs.js';
import type { Scenario } from '../../scenario/scenario.js';
import type { PartialTrial, TrialSummary } from '../trial.js';
import type { LostEnd, ScenarioProjectRef, WorkerSetup } from './protocol.js';
import type { TrialWorker, WorkerAnswer, WorkerLimits } from './TrialWorker.js';
import { DEFAULT_WORKER_HEAP_MB } from './workerHeap.js';
import { wallMs } from '../../core/clock/RealClock.js';
import { ConnectionLimit } from '../../model/live/ConnectionLimit.js';

/** How long one trial may hold its worker on the wall clock (trials run on virtual time: a sane one takes milliseconds). */
export const DEFAULT_TRIAL_TIMEOUT_MS = 10_000;
export { DEFAULT_WORKER_HEAP_MB } from './workerHeap.js';

/**
 * Trials that pay for starting one more worker: a worker's start (tsx, faultline's modules, the
 * scenario files) costs about as much CPU as 500 to 1,000 fault-free trials (bench/workers.ts).
 */
export const TRIALS_PER_WORKER = 500;

/** Batches sent to a worker before it answers the first: it starts the next one at once instead of waiting a round trip. */
const AHEAD = 2;

/**
 * The wall time a batch of trials aims at: long enough that a message per batch costs next to
 * nothing beside its trials, short enough that progress, `--bail` and an interrupt are seen
 * within a few of them (the trials already sent still run).
 */
const BATCH_MS = 25;
/** The most trials in one batch, whatever their cost. */
const MAX_BATCH = 64;

/**
 * Trials per batch from the wall time a trial took so far on this worker: one until a trial
 * was timed, then about `BATCH_MS` of them.
 */
export const batchSize = (msPerTrial: number | undefined): number =>
  msPerTrial === undefined ? 1 : Math.max(1, Math.min(MAX_BATCH, Math.floor(BATCH_MS / Math.max(msPerTrial, 1e-3))));

/**
 * The default worker count: the cores this process may use, but no more than the run's trials
 * repay, and always at least one, so every run is isolated from its agents. The count never
 * changes a report, only how fast it comes.
 */
export const defaultWorkers = (trials: number): number =>
  Math.max(1, Math.min(availableParallelism(), Math.ceil(trials / TRIALS_PER_WORKER)));

export interface IsolationOptions {
  readonly trialTimeoutMs?: number;
  readonly heapMb?: number;
}

export interface WorkerRun {
  readonly scenarios: readonly Scenario[];
  readonly configs: readonly ExecutionConfig[];
  readonly jobs: readonly TrialJob[];
  readonly runSeed: number;
  readonly workers: number;
  readonly keepFailures: WorkerSetup['keepFailures'];
  readonly addedFaults?: WorkerSetup['addedFaults'];
  readonly live?: WorkerSetup['live'];
  readonly refs: (job: TrialJob) => CellRefs;
  readonly signal?: AbortSignal;
  readonly isolation?: IsolationOptions;
  readonly onTrial: (job: TrialJob, trial: TrialSummary) => void;
  /** Judges a trial whose worker died or stalled. */
  readonly lost: (job: TrialJob, end: LostEnd, partial: PartialTrial | undefined) => Promise<TrialSummary>;
}

/** The scenarios as a worker loads them: by file, and for matrix scenarios by config file and agent too. */
export function scenarioSetup(
  scenarios: readonly Scenario[],
): Pick<WorkerSetup, 'scenarioFiles' | 'scenarioProjects' | 'scenarioOverrides'> {
  const refs = scenarios.map((s): ScenarioProjectRef | null => {
    const project = projectOf(s);
    if (project === undefined) return null;
    const agent = matrixAgentOf(s)?.name;
    return { file: project.file, ...(project.pick && { pick: project.pick }), ...(agent !== undefined && { agent }) };
  });
  const overrides = scenarios.map((s) => overrideOf(s) ?? null);
  return {
    scenarioFiles: scenarioFiles(scenarios),
    ...(refs.some((r) => r !== null) && { scenarioProjects: refs }),
    ...(overrides.some((o) => o !== null) && { scenarioOverrides: overrides }),
  };
}

export function scenarioFiles(scenarios: readonly Scenario[]): string[] {
  return scenarios.map((s) => {
    const file = sourceOf(s);
    if (file === undefined) {
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `scenario "${s.name}" was not loaded from a file: workers load scenarios by path (load it with ` +
          `loadScenarios, or run with workers: 0)`,
      );
    }
    return file;
  });
}

/**
 * The watchdog and heap limit of the run's workers: the options given, else the defaults. The
 * user's code runs on workers in processes of their own, which no allocation of its can take the
 * command down with; the built-in library's trials cannot run away, and keep the cheaper threads.
 */
export function isolationLimits(scenarios: readonly Scenario[], isolation: IsolationOptions | undefined): WorkerLimits {
  return {
    // A trial of many agents does their work at once: the default watchdog grows with the largest crowd.
    // A command agent runs on the wall clock for up to its own timeoutMs: the watchdog waits past it, for its group's kill and sweep.
    trialTimeoutMs:
      isolation?.trialTimeoutMs ??
      Math.max(
        DEFAULT_TRIAL_TIMEOUT_MS * Math.max(1, Math.ceil(Math.max(0, ...scenarios.map((s) => s.agents)) / 100)),
        ...scenarios.map((s) => (s.agent.kind === 'command' ? s.agent.timeoutMs + DEFAULT_TRIAL_TIMEOUT_MS : 0)),
      ),
    heapMb: isolation?.heapMb ?? DEFAULT_WORKER_HEAP_MB,
    heapGiven: isolation?.heapMb !== undefined,
    ownProcess: runsUserCode(scenarios),
  };
}

/**
 * Runs the jobs on `workers` threads. Job j goes to worker j mod n, in order, so which trials
 * share a thread is the same in every run; results arrive in any order, and the run's tallies
 * do not depend on it. A worker that dies or stalls takes only its trial with it: the trial is
 * judged `crashed` or `hung` with the reason and what it did up to then (a trial that spins runs
 * once more on a worker that streams its history), a fresh worker takes the rest of its queue.
 * Resolves to true when the signal stopped the run before every job was done (the trials in
 * progress then finish first).
 */
export async function runOnWorkers(run: WorkerRun): Promise<boolean> {
  const setup: WorkerSetup = {
    ...scenarioSetup(run.scenarios),
    configs: run.configs,
    runSeed: run.runSeed,
    keepFailures: run.keepFailures,
    ...(run.addedFaults && { addedFaults: run.addedFaults }),
    ...(run.live && { live: run.live }),
  };
  const limits = isolationLimits(run.scenarios, run.isolation);
  const n = Math.max(1, Math.min(run.workers, run.jobs.length));
  const queues = Array.from({ length: n }, (_, w) => run.jobs.filter((_, j) => j % n === w));
  const live = new Set<TrialWorker>();
  // An interrupt stops handing out trials, and the ones in progress finish (the watchdog bounds them);
  // a failure of the pool itself stops every worker at once.
  const failed = new AbortController();
  const stopped = (): boolean => run.signal?.aborted === true || failed.signal.aborted;
  const stopAll = (): void => {
    failed.abort();
    for (const w of live) void w.stop();
  };
  // A worker still starting has no trial in progress to finish: any stop stops it at once (one that never
  // says it is ready would otherwise hold the run for ever).
  const start = workerStarter(
    limits,
    stopped,
    run.signal ? AbortSignal.any([run.signal, failed.signal]) : failed.signal,
  );
  const tally = { done: 0 };
  // Streaming each event costs the main thread about as much as the trial: only for a trial known to spin.
  const streamed = async (job: TrialJob): Promise<PartialTrial | undefined> => {
    const worker = await start({ ...setup, stream: true });
    if (worker === undefined) return undefined;
    live.add(worker);
    try {
      const answer = await worker.run({
        scenario: job.scenario,
        config: job.config,
        trialIndex: job.trialIndex,
        refs: run.refs(job),
      });
      return answer.kind === 'lost' ? answer.partial : undefined;
    } finally {
      live.delete(worker);
      await worker.stop();
    }
  };

  const judgeLost = async (job: TrialJob, answer: Extract<WorkerAnswer, { kind: 'lost' }>): Promise<TrialSummary> => {
    // A worker that spins cannot say what its trial did: the same trial again, on a worker that streams its history, can.
    const partial = answer.partial ?? (answer.end.kind === 'hung' ? await streamed(job) : undefined);
    return run.lost(job, answer.end, partial);
  };

  try {
    await Promise.all(
      queues.map((q) =>
        drain(q, { run, setup, live, start, stopped, judgeLost, tally }).catch(
          (e: unknown) => (stopAll(), Promise.reject(e)),
        ),
      ),
    );
  } finally {
    await Promise.all([...live].map((w) => w.stop()));
  }
  return tally.done < run.jobs.length;
}

/** Starts workers, a core's worth at a time; one the run stopped before or while it started is undefined. */
function workerStarter(
  limits: WorkerLimits,
  stopped: () => boolean,
  stop: AbortSignal,
): (setup: WorkerSetup) => Promise<TrialWorker | undefined> {
  // Workers load (tsx, faultline's modules, the agent and its SDK) a core's worth at a time: dozens
  // loading at once on a small machine each take longer than a module may take to load (30 s).
  const loading = new ConnectionLimit(Math.max(1, availableParallelism()));
  return async (s) => {
    const free = await loading.acquire();
    try {
      if (stopped()) return undefined;
      // Loaded with the first worker: a run that stays in process (the default run, mostly) never needs the pool's
      // thread and process hosts.
      const { TrialWorker } = await import('./TrialWorker.js');
      return await TrialWorker.start(s, limits, stop);
    } catch (error) {
      // Stopped while it started: not a failure of the pool.
      if (stopped()) return undefined;
      throw error;
    } finally {
      free();
    }
  };
}

/** What each queue's drain shares with the others of one `runOnWorkers`. */
interface Pool {
  readonly run: WorkerRun;
  readonly setup: WorkerSetup;
  /** The workers started and not yet stopped. */
  readonly live: Set<TrialWorker>;
  /** A started worker, or undefined when the run was stopped first. */
  readonly start: (setup: WorkerSetup) => Promise<TrialWorker | undefined>;
  readonly stopped: () => boolean;
  readonly judgeLost: (job: TrialJob, answer: Extract<WorkerAnswer, { kind: 'lost' }>) => Promise<TrialSummary>;
  /** Trials judged so far. */
  readonly tally: { done: number };
}

type Sent = { job: TrialJob; answer: Promise<WorkerAnswer> }[];
type Batches = { size: number; left: number }[];

/** Runs one worker's queue in order, on a fresh worker whenever the last one died or stalled. */
async function drain(queue: readonly TrialJob[], pool: Pool): Promise<void> {
  const { run, setup, live, start, stopped, judgeLost, tally } = pool;
  let worker: TrialWorker | undefined;
  // Sent and not yet answered, oldest first; a trial that did not run goes back to the front of `todo`.
  const sent: Sent = [];
  // Batches in flight (their sizes, and trials not answered yet): the next is sent when fewer than AHEAD are.
  const batches: Batches = [];
  const todo = [...queue];
  // Wall time per trial on this queue's worker, from its answers: what sizes the next batch.
  let since: number | undefined;
  let msPerTrial: number | undefined;
  try {
    for (;;) {
      while (batches.length < AHEAD && todo.length > 0 && !stopped()) {
        if (worker === undefined || !worker.alive) {
          // Whatever was sent to the worker that died answers first (`stopped`), so nothing overtakes it.
          if (sent.length > 0) break;
          if (worker) live.delete(worker);
          worker = await start(setup);
          if (worker === undefined) break;
          live.add(worker);
          since = undefined;
          if (stopped()) break;
        }
        sendBatch(worker, todo.splice(0, worker.batches ? batchSize(msPerTrial) : 1), run, sent, batches);
        since ??= wallMs();
      }
      const head = sent.shift();
      if (head === undefined) return;
      const answer = await head.answer;
      const batch = batches[0];
      if (batch !== undefined && --batch.left === 0) {
        batches.shift();
        // The worker runs batch after batch without a pause (AHEAD): the time between two answers is the later batch's.
        const now = wallMs();
        if (answer.kind === 'result' && since !== undefined) msPerTrial = (now - since) / batch.size;
        since = now;
      }
      let trial: TrialSummary;
      if (answer.kind === 'stopped') {
        // Its worker is gone, and so is everything sent after it: all of it again, in order, before anything
        // later (each worker runs a cell's trials in index order; see WorkerSetup.keepFailures). A trial
        // after it that the worker was running when it died or stalled is judged lost.
        const rest = sent.splice(0);
        batches.length = 0;
        const again = [head.job];
        for (const [i, a] of (await Promise.all(rest.map((s) => s.answer))).entries()) {
          const job = rest[i]!.job;
          if (a.kind === 'stopped') again.push(job);
          else {
            tally.done++;
            run.onTrial(job, a.kind === 'lost' ? await judgeLost(job, a) : a.trial);
          }
        }
        todo.unshift(...again);
        continue;
      } else if (answer.kind === 'lost') trial = await judgeLost(head.job, answer);
      else {
        trial = answer.trial;
        // The trial changed what the next one would see: its worker runs no other.
        if (answer.retire !== undefined) await worker!.stop();
      }
      tally.done++;
      run.onTrial(head.job, trial);
    }
  } finally {
    if (worker) {
      live.delete(worker);
      await worker.stop();
    }
  }
}

/** Sends `jobs` to the worker as one batch, each answer queued behind those sent before it. */
function sendBatch(worker: TrialWorker, jobs: TrialJob[], run: WorkerRun, sent: Sent, batches: Batches): void {
  const answers = worker.runBatch(
    jobs.map((job) => ({
      scenario: job.scenario,
      config: job.config,
      trialIndex: job.trialIndex,
      refs: run.refs(job),
    })),
  );
  jobs.forEach((job, i) => sent.push({ job, answer: answers[i]! }));
  batches.push({ size: jobs.length, left: jobs.length });
}
