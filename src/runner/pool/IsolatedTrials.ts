import type { FaultPlan } from '../../faults/plan.js';
import type { ExecutionConfig } from '../../runtime/executionConfig.js';
import type { CellRefs } from '../../stats/CellTally.js';
import { withAddedFaults } from '../../scenario/addedFaults.js';
import type { Scenario } from '../../scenario/scenario.js';
import { withOverride, type ScenarioOverride } from '../../scenario/scenarioOverride.js';
import { runTrial, summarise, type PartialTrial, type TrialSummary } from '../trial.js';
import { isolationLimits, scenarioSetup, type IsolationOptions } from './runOnWorkers.js';
import { TrialWorker } from './TrialWorker.js';

export interface IsolatedTrialsOptions {
  /** Loaded from files (`loadScenarios`): the worker loads them again by path. */
  readonly scenarios: readonly Scenario[];
  readonly configs: readonly ExecutionConfig[];
  readonly runSeed: number;
  /** Fault rules appended to every scenario's own plan (`sweep --replay`). */
  readonly addedFaults?: FaultPlan;
  readonly isolation?: IsolationOptions;
  /** Aborting stops the worker at once: the trial in progress answers `undefined`. */
  readonly signal?: AbortSignal;
}

export interface IsolatedTrial {
  readonly scenario: number;
  readonly config: number;
  readonly trialIndex: number;
  readonly refs: CellRefs;
  readonly override?: ScenarioOverride;
}

/** The trial as its worker is asked for it: its own fields only, whatever else the caller's object holds. */
const requestOf = (trial: IsolatedTrial): Parameters<TrialWorker['run']>[0] => ({
  scenario: trial.scenario,
  config: trial.config,
  trialIndex: trial.trialIndex,
  refs: trial.refs,
  ...(trial.override && { override: trial.override }),
});

/**
 * Single trials on a worker thread, one at a time, with `run`'s isolation and verdicts: the
 * wall-clock watchdog, the heap limit, `process.exit` and unhandled errors as the trial's own
 * `crashed` end, with what it did up to then (a trial that spins runs once more on a worker
 * that streams its history, so its evidence too shows what it did before).
 * `replay`, `sweep --replay` and `explore` run the agent code they reproduce this way, so it
 * cannot end or hang the command. The worker is kept for the next trial while it lives.
 */
export class IsolatedTrials {
  #worker: TrialWorker | undefined;
  #closed = false;
  /** Aborted by `close`: a worker still starting is stopped too, not waited for. */
  readonly #closing = new AbortController();
  readonly #onAbort = (): void => void this.close();

  constructor(private readonly options: IsolatedTrialsOptions) {
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** The trial, judged; `undefined` when the signal stopped it (or came first). */
  async run(trial: IsolatedTrial): Promise<TrialSummary | undefined> {
    // A worker that died between trials did not run this one: a fresh one does, once.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (this.#closed || this.options.signal?.aborted === true) return undefined;
      const worker = await this.#live();
      if (worker === undefined) return undefined;
      const answer = await worker.run(requestOf(trial));
      if (answer.kind === 'result') {
        // The trial changed what the next one would see: its worker runs no other.
        if (answer.retire !== undefined) await this.#drop();
        return answer.trial;
      }
      if (answer.kind === 'lost') {
        await this.#drop();
        // A worker that spins cannot say what its trial did: the same trial again, on a worker that streams its history, can.
        const partial = answer.partial ?? (answer.end.kind === 'hung' ? await this.#streamed(trial) : undefined);
        const scenario = withOverride(
          withAddedFaults(this.options.scenarios[trial.scenario]!, this.options.addedFaults),
          trial.override,
        );
        const judged = await runTrial({
          scenario,
          config: this.options.configs[trial.config]!,
          runSeed: this.options.runSeed,
          trialIndex: trial.trialIndex,
          refs: trial.refs,
          lost: answer.end,
          ...(partial && { partial }),
        });
        return summarise(judged, true);
      }
      await this.#drop();
    }
    return undefined;
  }

  /** Stops the worker; later trials answer `undefined`. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    this.options.signal?.removeEventListener('abort', this.#onAbort);
    await this.#drop();
  }

  /** What the trial did up to where its worker stopped answering, from a worker that streams it (undefined if it answers this time). */
  async #streamed(trial: IsolatedTrial): Promise<PartialTrial | undefined> {
    const worker = await this.#live(true);
    if (worker === undefined) return undefined;
    const answer = await worker.run(requestOf(trial));
    await this.#drop();
    return answer.kind === 'lost' ? answer.partial : undefined;
  }

  async #live(stream = false): Promise<TrialWorker | undefined> {
    if (this.#worker?.alive === true) return this.#worker;
    const o = this.options;
    // Streaming each event costs the main thread about as much as the trial: only for a trial known to spin.
    const starting = TrialWorker.start(
      {
        ...scenarioSetup(o.scenarios),
        configs: o.configs,
        runSeed: o.runSeed,
        keepFailures: null,
        stream,
        ...(o.addedFaults && { addedFaults: o.addedFaults }),
      },
      isolationLimits(o.scenarios, o.isolation),
      this.#closing.signal,
    );
    // Closed while it started: it was stopped, and runs nothing.
    const worker = await starting.catch((error: unknown) => {
      if (this.#closed) return undefined;
      throw error;
    });
    if (worker === undefined) return undefined;
    if (this.#closed) {
      await worker.stop();
      return undefined;
    }
    this.#worker = worker;
    return worker;
  }

  async #drop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.stop();
  }
}
