// A judged trial, as the runner fills it and the statistics and reporters read it: on the floor
// below all three. The whole run's result is in runResult.ts.
import type { CheckResult } from '../checks/index.js';
import type { TrialRecord } from '../checks/record.js';
import type { ModelExchange } from '../model/api/modelExchanges.js';
import type { TrialStats } from './trialStats.js';

export interface TrialCommon extends TrialRecord {
  readonly runSeed: number;
  /** How a command line names this trial's scenario and configuration (a built-in name or a file path). */
  readonly refs: {
    readonly scenario: string;
    readonly config: string;
    readonly agent?: string;
    readonly behaviour?: string;
  };
  readonly checks: readonly CheckResult[];
  readonly stats: TrialStats;
  /**
   * A live trial's recording of its model exchanges (a cassette file), from where the run was started: `faultline
   * replay --cassette` answers from it.
   */
  readonly recording?: string;
  /**
   * A live trial's model exchanges as a person reads them (the messages sent, the answers): the reports show why the
   * agent did what it did.
   */
  readonly exchanges?: readonly ModelExchange[];
  /** The model the trial's answers came from, for the price table: the scenario's `model.name`, else what the live answers named. */
  readonly model?: string;
  /** What the trial's model answers cost, priced in the run's main thread (absent when the model has no price). */
  readonly cost?: number;
}

/**
 * One trial, judged. `failed` names the checkers that did not pass. `infra-error`: the real
 * model provider failed on its own (under `--live`), so the agent was not judged; such a trial
 * is counted apart and left out of pass^k.
 */
export type TrialResult =
  | (TrialCommon & { readonly status: 'passed' })
  | (TrialCommon & { readonly status: 'failed'; readonly failed: readonly string[] })
  | (TrialCommon & { readonly status: 'infra-error'; readonly message: string });
export type TrialStatus = TrialResult['status'];

type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A trial as a run keeps it and a worker sends it back: everything but the final world snapshot. */
export type TrialSummary = OmitEach<TrialResult, 'snapshot'>;
