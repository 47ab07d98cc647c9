import { trialSeed } from '../core/index.js';
import { asExecutionConfig } from '../runtime/executionConfig.js';
import type { RunResult } from '../stats/runResult.js';
import type { TrialJob } from './matrixJobs.js';
import type { ReplayTarget } from './replay.js';
import { judgeTrial, summarise, type LiveTrial, type TrialOptions, type TrialSummary } from './trial.js';
import { trialRecord } from './trial/trialRecord.js';

/** A run ended while a trial held its thread: the run so far, and that trial (judged hung when it could be). */
export interface HungEnd {
  readonly run: RunResult;
  /** The trial in progress, if any: what replays it. */
  readonly trial?: ReplayTarget;
  /** The trial was judged hung on what it did so far (its world was built), and is in `run`. */
  readonly judged: boolean;
}

/**
 * The run so far with the trial in progress judged `hung` (`message` its reason), for a watchdog
 * outside the thread while that trial holds it (`--workers 0`). It runs synchronously in the
 * middle of the trial: nothing it calls waits.
 */
export type HungRun = (message: string) => HungEnd;

/**
 * Follows the trial a run has in progress in this process (`--workers 0`): its job, its options
 * and, once its world exists, its history and world, so that a trial that never gives the thread
 * back can still be judged, on what it did so far, as a worker's hung trial is.
 */
export class TrialInProgress {
  #job: TrialJob | undefined;
  #options: TrialOptions | undefined;
  #live: LiveTrial | undefined;

  /** The trial's options, watched: call before running it. */
  start(job: TrialJob, options: TrialOptions): TrialOptions {
    this.#job = job;
    this.#options = options;
    this.#live = undefined;
    return { ...options, watch: (live) => (this.#live = live) };
  }

  end(): void {
    this.#job = undefined;
    this.#options = undefined;
    this.#live = undefined;
  }

  /** The trial in progress, as a replay names it; undefined when none is. */
  current(): ReplayTarget | undefined {
    const o = this.#options;
    if (o === undefined) return undefined;
    const config = asExecutionConfig(o.config).name;
    return {
      scenario: o.scenario.name,
      config,
      runSeed: o.runSeed,
      trialIndex: o.trialIndex,
      ...(o.refs && { refs: o.refs }),
    };
  }

  /** The trial in progress judged hung with what it did so far; undefined when none is, or its world is not built yet. */
  judgeHung(message: string): { job: TrialJob; trial: TrialSummary } | undefined {
    const job = this.#job;
    const options = this.#options;
    const live = this.#live;
    if (job === undefined || options === undefined || live === undefined) return undefined;
    const { scenario, runSeed, trialIndex, refs } = options;
    const config = asExecutionConfig(options.config).name;
    const seed = trialSeed(runSeed, scenario.seedName ?? scenario.name, config, trialIndex);
    // As a worker's watchdog reports a trial it stopped: when on the trial's clock is not known (0).
    const lost = { kind: 'hung', at: 0, message } as const;
    const history = [...live.history.events];
    const snapshot = live.snapshot();
    const record = trialRecord(
      { scenario: scenario.name, config, trialIndex, seed },
      live.history,
      lost,
      { snapshot },
      lost,
      { history, snapshot },
    );
    return { job, trial: summarise(judgeTrial(scenario, record, runSeed, refs), true) };
  }
}
