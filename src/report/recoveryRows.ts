import type { Cell } from '../stats/CellTally.js';
import type { RecoveryMetrics } from '../stats/RecoveryTally.js';
import type { RunResult } from '../runner/run.js';
import type { ColumnWord } from './columnWord.js';
import { formatRate, formatSeconds } from './format.js';
import { formatRateWithInterval } from './intervalText.js';

/** The recovery table's columns, the same in the console and Markdown; the second names what the run's columns are. */
export const recoveryHeader = (word: ColumnWord): string[] => [
  'scenario',
  word,
  'recovered',
  'rate',
  'p50',
  'p95',
  'max',
  'calls after',
];

/** What the columns mean, once, under the table. */
export const RECOVERY_LEGEND =
  'recovered: trials that passed the recovery checker after the heal; rate: their share, with its 95% exact interval; ' +
  'p50/p95/max: virtual time from the heal to the goal (never: the quantile falls among trials that ' +
  'never reached it); calls after: tool calls started after the heal, over the trials.';

/** A time to recover, or `never`. */
export const formatRecoveryTime = (ms: number | null): string => (ms === null ? 'never' : formatSeconds(ms));

/** A cell of a scenario with heal and recovery, with its figures. */
export interface RecoveryRow {
  readonly cell: Cell;
  readonly recovery: RecoveryMetrics;
  readonly cells: readonly string[];
  /** Some trial did not recover: its row is marked. */
  readonly failed: boolean;
}

/** One row per cell that expects a recovery, in the run's order; none when no scenario does. */
export function recoveryRows(run: Pick<RunResult, 'cells'>): RecoveryRow[] {
  return run.cells.flatMap((cell) => {
    const r = cell.metrics.recovery;
    if (!r) return [];
    const cells = [
      cell.scenario,
      cell.config,
      `${r.recovered}/${r.trials}`,
      formatRateWithInterval(formatRate(r.trials === 0 ? null : r.rate), r.interval),
      formatRecoveryTime(r.timeToRecoverMs.p50),
      formatRecoveryTime(r.timeToRecoverMs.p95),
      formatRecoveryTime(r.timeToRecoverMs.max),
      String(r.callsAfter),
    ];
    return [{ cell, recovery: r, cells, failed: r.recovered < r.trials }];
  });
}
