import { trialSeed } from '../core/index.js';
import { memoryBackend } from '../runner/backend.js';
import { openServedTrial, type OpenServedTrial } from '../runner/servedTrial.js';
import { judgeTrial } from '../runner/trial/judgeTrial.js';
import type { TrialResult } from '../runner/trial.js';
import type { Scenario } from '../scenario/scenario.js';
import type { McpHttpEndpoint } from '../serve/McpHttpEndpoint.js';

/**
 * The execution layer a served trial is judged under. The agent is someone else's program, its
 * own execution layer: the name only labels the trial (and draws its seed), as `run` labels a cell.
 */
export const SERVED_CONFIG = 'rulebook';

/** What the client reported when it ended a trial (the FAULTLINE_RESULT line). */
export type ServedReport = Parameters<OpenServedTrial['finish']>[0];

/**
 * A served session's trials, one open at a time at the same addresses: `open` serves the next,
 * `end` judges the open one (if any) with what its client reported, and keeps it in `judged`.
 */
export class ServedTrials {
  readonly judged: TrialResult[] = [];
  #current: OpenServedTrial | undefined;
  #ports: OpenServedTrial['ports'] | undefined;
  #index = 0;

  constructor(
    readonly scenario: Scenario,
    readonly runSeed: number,
    readonly mcpEndpoint: McpHttpEndpoint,
  ) {}

  /** The trial open now, if any. */
  get current(): OpenServedTrial | undefined {
    return this.#current;
  }

  /** The index of the trial open now, or of the next one. */
  get trialIndex(): number {
    return this.#index;
  }

  async open(): Promise<OpenServedTrial> {
    const seed = trialSeed(this.runSeed, this.scenario.name, SERVED_CONFIG, this.#index);
    const open = await openServedTrial({
      scenario: this.scenario,
      config: SERVED_CONFIG,
      seed,
      trialIndex: this.#index,
      backend: memoryBackend,
      mcpEndpoint: this.mcpEndpoint,
      ...(this.#ports && { ports: this.#ports }),
    });
    this.#current = open;
    this.#ports = open.ports;
    return open;
  }

  /** Judges the open trial (`undefined` when none is open); the next `open` serves the one after. */
  async end(report?: ServedReport): Promise<TrialResult | undefined> {
    const open = this.#current;
    this.#current = undefined;
    if (!open) return undefined;
    const trial = judgeTrial(this.scenario, await open.finish(report), this.runSeed, undefined);
    this.judged.push(trial);
    return trial;
  }

  /** Moves on to the next trial's index, once the ended one has been told. */
  next(): void {
    this.#index++;
  }
}
