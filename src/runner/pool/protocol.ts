import type { TrialEnd } from '../../checks/record.js';
import type { ExecutionConfig } from '../../runtime/executionConfig.js';
import type { FaultPlan } from '../../faults/plan.js';
import type { CellRefs } from '../../stats/CellTally.js';
import type { HistoryEvent } from '../../core/events.js';
import type { WorldSnapshot } from '../../world/snapshot.js';
import type { ScenarioOverride } from '../../scenario/scenarioOverride.js';
import type { PartialTrial, TrialSummary } from '../trial.js';
import type { LiveRun } from '../../scenario/modelSource.js';

/** How a worker finds one matrix scenario again: its config file, the `--agent` pick, its agent. */
export interface ScenarioProjectRef {
  readonly file: string;
  readonly pick?: readonly string[];
  readonly agent?: string;
}

/** What a worker is started with: references to load, never objects holding functions. */
export interface WorkerSetup {
  /** Absolute paths of the scenario files, loaded in the worker by the CLI's own loader. */
  readonly scenarioFiles: readonly string[];
  /**
   * Per scenario file, when it was built from a project's config file (`defaults`, `agents`):
   * the config file, the `--agent` pick and the matrix agent it runs; the worker builds it again.
   */
  readonly scenarioProjects?: readonly (ScenarioProjectRef | null)[];
  /** Per scenario file, the variant of it the run asked for (`--behaviour`), applied once it is loaded. */
  readonly scenarioOverrides?: readonly (ScenarioOverride | null)[];
  /** Configurations of every kind are plain data, so they travel by value. */
  readonly configs: readonly ExecutionConfig[];
  readonly runSeed: number;
  /**
   * Which histories come back: every trial's (null), or only those of failing trials that can
   * be among the first `keepFailures` of their cell. A worker runs each cell's trials in index
   * order, so once it has sent that many failing histories for a cell, any later failure of
   * that cell ranks behind them and is elided anyway: its history stays in the worker, where
   * copying it to the main thread would cost about as much as the trial.
   */
  readonly keepFailures: number | null;
  /** Fault rules appended to every scenario's own plan once it is loaded (see `RunOptions.addedFaults`). */
  readonly addedFaults?: FaultPlan;
  /**
   * Stream each event of the trial in progress (and the world's state after each effect) as it
   * is recorded, so a trial whose agent then blocks the thread for good still has its history
   * (`IsolatedTrials` runs a trial that hung once more this way; it costs too much for every trial).
   */
  readonly stream?: boolean;
  /** A `--live` run: the model requests go to its gateway in the main thread, and each trial's recording into this folder. */
  readonly live?: LiveRun;
  /**
   * Where the worker writes the id of the trial it starts (`Atomics.store` at index 0), when
   * trials are sent in batches: the results of a batch come back together, so the main thread
   * learns from this which trial of the batch its watchdog or a dead worker caught.
   * A thread of this process only (shared memory cannot reach a worker in a process of its own).
   */
  readonly progress?: Int32Array;
}

/** One trial the main thread asks for. */
export interface TrialRequest {
  readonly id: number;
  readonly scenario: number;
  readonly config: number;
  readonly trialIndex: number;
  readonly refs: CellRefs;
  /** A variant of the scenario to run instead (explore's candidate plans). */
  readonly override?: ScenarioOverride;
}

/**
 * Trials the worker runs in order; it answers them all at once when the last is done (one
 * message instead of one per trial: each costs both threads a copy, an event and a wake-up).
 */
export interface TrialBatch {
  readonly type: 'trials';
  readonly trials: readonly TrialRequest[];
}

/** One trial's answer. `retire`: the trial is judged, but its worker must not run another (an agent changed its globals). */
export interface TrialAnswer {
  readonly id: number;
  readonly trial: TrialSummary;
  readonly retire?: string;
}

export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'setup_failed'; readonly message: string; readonly code?: string }
  /** The answers to a batch's trials, in order (to one that retired its worker, the batch's last). */
  | { readonly type: 'results'; readonly results: readonly TrialAnswer[] }
  /** The trial in progress (if any) took its worker down with it. */
  | {
      readonly type: 'fatal';
      readonly id: number | undefined;
      readonly reason: string;
      readonly partial?: PartialTrial;
    }
  /** With `WorkerSetup.stream`: one event of the trial in progress, and after an effect the world's state. */
  | { readonly type: 'progress'; readonly id: number; readonly event: HistoryEvent; readonly snapshot?: WorldSnapshot };

/** How a trial ends when its worker dies or stalls. */
export type LostEnd = Extract<TrialEnd, { kind: 'crashed' | 'hung' }>;

/** `Error: boom` for errors, the value itself for anything else thrown or rejected. */
export function describeThrown(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'object' && value !== null && 'message' in value)
    return String((value as { message: unknown }).message);
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}
