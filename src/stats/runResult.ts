// The whole run's result, as the runner fills it and the reporters format it: every figure a
// report shows is computed here, in stats/, never by a reporter (`runFigures`, `withCellFigures`).
import type { Cell } from './CellTally.js';
import type { ConfigMetrics } from './configMetrics.js';

/** One slice of a run's matrix, `index` of `count` (1-based, as `--shard 2/4` reads). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * Why a run stopped early when no signal stopped it: its spending limit (`--max-cost`) was reached, or the process that
 * ran its agents' code (`--workers 0`) died, in the trial named when one was running (the supervisor wrote the reports).
 */
export type RunStop =
  | { readonly reason: 'max-cost'; readonly limit: number; readonly spent: number }
  | { readonly reason: 'process-died'; readonly cause: string; readonly trial?: string };

/** A whole run: every scenario crossed with every configuration, k trials each. */
export interface RunResult {
  readonly seed: number;
  readonly k: number;
  readonly scenarios: readonly string[];
  readonly configs: readonly string[];
  readonly cells: readonly Cell[];
  readonly byConfig: readonly ConfigMetrics[];
  /** What the model answers cost over the run, when a cell was priced. */
  readonly cost?: number;
  /** True when the run was stopped before every trial ran; the cells hold what finished. */
  readonly interrupted: boolean;
  /** Why an interrupted run stopped, when it was not a signal (`RunStop`). */
  readonly stopped?: RunStop;
  /** Failing trials each cell keeps in full; null: every trial is kept. */
  readonly keepFailures: number | null;
  /** The slice of the matrix this run covered, when it is one shard of several. */
  readonly shard?: Shard;
}
