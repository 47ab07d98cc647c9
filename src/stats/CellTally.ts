import type { TrialEnd } from '../checks/record.js';
import type { RuleInfo } from './coverage.js';
import { MetricsTally, type CellMetrics } from './metrics.js';
import type { TrialStatus, TrialSummary } from './trialResult.js';

/** Trials of a cell that ended alike: same status, same failing checkers, same kind of end. */
export interface VerdictGroup {
  readonly status: TrialStatus;
  readonly failed: readonly string[];
  /** The end of the group's first trial (its message, for a crash). */
  readonly end: TrialEnd;
  readonly trials: number;
  /** Index of the group's first trial: the one to replay. */
  readonly first: number;
}

/** How a command line names a cell's scenario and configuration (a built-in name or a file path). */
export interface CellRefs {
  readonly scenario: string;
  readonly config: string;
  /** The matrix agent (`agents` in faultline.config.ts) the cell ran: a replay picks it with `--agent`. */
  readonly agent?: string;
  /** The stand-in's behaviour the run gave the scenario (`--behaviour`, as typed): a replay repeats it. */
  readonly behaviour?: string;
}

/**
 * The clock a cell's trials ran on: `virtual` for every agent faultline holds in its own process,
 * `real` (the wall clock) for a `command` agent, whose times are real milliseconds.
 */
export type CellClock = 'virtual' | 'real';

/** One scenario under one configuration: its metrics, a verdict summary of every trial, and the trials kept in full. */
export interface Cell {
  readonly scenario: string;
  readonly config: string;
  readonly refs: CellRefs;
  /** Present, as `real`, only for a cell on the wall clock: reports then say wall time, not virtual time. */
  readonly clock?: 'real';
  /** Kept in full, by index: every trial, or with `keepFailures` only the first failing ones. */
  readonly trials: readonly TrialSummary[];
  /** Every trial of the cell, grouped by how it ended, by first index. */
  readonly verdicts: readonly VerdictGroup[];
  /** Failing trials beyond `keepFailures`: counted in `metrics` and `verdicts`, not kept in `trials`. */
  readonly elided: number;
  readonly metrics: CellMetrics;
}

interface MutableGroup {
  status: TrialStatus;
  failed: readonly string[];
  end: TrialEnd;
  trials: number;
  first: number;
}

const groupKey = (g: Pick<VerdictGroup, 'status' | 'failed' | 'end'>): string =>
  `${g.status}\u0000${g.failed.join(',')}\u0000${g.end.kind}`;
const byIndex = (a: TrialSummary, b: TrialSummary): number => a.trialIndex - b.trialIndex;

/**
 * A cell as its trials arrive, in any order (workers answer out of order; shards hold slices):
 * whatever the order, the finished cell is the same. With `keepFailures`, memory stays flat in
 * the number of trials: only that many failing trials are kept, the lowest indices first.
 */
export class CellTally {
  readonly #metrics: MetricsTally;
  readonly #groups = new Map<string, MutableGroup>();
  #kept: TrialSummary[] = [];
  readonly #unjudged: TrialSummary[] = [];
  #failing = 0;
  #trials = 0;

  constructor(
    readonly scenario: string,
    readonly config: string,
    readonly refs: CellRefs,
    /** Failing trials kept in full; every trial (passing ones too) when undefined. */
    readonly keepFailures: number | undefined,
    /** The cell's fault plan; a merge learns it from the shards' cells. */
    rules: readonly RuleInfo[] = [],
    readonly clock: CellClock = 'virtual',
  ) {
    this.#metrics = new MetricsTally(rules);
  }

  /** Trials added so far. */
  get trials(): number {
    return this.#trials;
  }

  add(trial: TrialSummary): void {
    this.#metrics.add(trial);
    this.#trials++;
    this.#group({
      status: trial.status,
      failed: trial.status === 'failed' ? trial.failed : [],
      end: trial.end,
      trials: 1,
      first: trial.trialIndex,
    });
    if (trial.status === 'failed') this.#failing++;
    this.#keep([trial]);
  }

  /** Adds a finished cell of the same scenario and configuration (a shard's slice of it). */
  addCell(cell: Cell): void {
    this.#metrics.addMetrics(cell.metrics);
    this.#trials += cell.metrics.trials;
    for (const g of cell.verdicts) this.#group(g);
    this.#failing += cell.metrics.trials - cell.metrics.successes;
    this.#keep(cell.trials);
  }

  #group(g: VerdictGroup): void {
    const key = groupKey(g);
    const had = this.#groups.get(key);
    if (had === undefined) this.#groups.set(key, { ...g });
    else {
      had.trials += g.trials;
      if (g.first < had.first) Object.assign(had, { first: g.first, end: g.end });
    }
  }

  #keep(trials: readonly TrialSummary[]): void {
    // An infra-error trial is kept whatever keepFailures says: it was not judged, and the report must say which one
    // to run again (its recording).
    if (this.keepFailures !== undefined) this.#unjudged.push(...trials.filter((t) => t.status === 'infra-error'));
    const chosen = this.keepFailures === undefined ? trials : trials.filter((t) => t.status === 'failed');
    if (chosen.length === 0) return;
    this.#kept.push(...chosen);
    if (this.keepFailures !== undefined && this.#kept.length > this.keepFailures)
      this.#kept = this.#kept.sort(byIndex).slice(0, this.keepFailures);
  }

  cell(): Cell {
    const trials = [...this.#kept, ...this.#unjudged].sort(byIndex);
    return {
      scenario: this.scenario,
      config: this.config,
      refs: this.refs,
      ...(this.clock === 'real' && { clock: 'real' as const }),
      trials,
      verdicts: [...this.#groups.values()].sort((a, b) => a.first - b.first).map((g) => ({ ...g })),
      elided: this.#failing - trials.filter((t) => t.status === 'failed').length,
      metrics: this.#metrics.metrics(),
    };
  }
}
