import type { Cell } from '../stats/CellTally.js';
import { notExercisedMessage, ruleRef, unexercised, type RuleCoverage } from '../stats/coverage.js';
import type { RunResult } from '../runner/run.js';
import type { ColumnWord } from './columnWord.js';

/** The coverage table's columns, the same in the console and Markdown; the second names what the run's columns are. */
export const coverageHeader = (word: ColumnWord): string[] => [
  'scenario',
  word,
  'rule',
  'match, fault',
  'fired in',
  'firings',
];

/** One fault rule of one cell: how often it fired, and whether its silence leaves the cell not exercised. */
export interface CoverageRow {
  readonly cell: Cell;
  readonly rule: RuleCoverage;
  readonly cells: readonly string[];
  /** Expected to fire and fired in no trial: the cell is not exercised. */
  readonly silent: boolean;
}

/** A row per rule of each cell's fault plan, in the run's order; none when no cell has a rule. */
export function coverageRows(run: RunResult): CoverageRow[] {
  return run.cells.flatMap((cell) => {
    const n = cell.metrics.trials;
    const silent = new Set(unexercised(cell.metrics.coverage, n).map((r) => r.rule));
    return cell.metrics.coverage.map((rule) => ({
      cell,
      rule,
      silent: silent.has(rule.rule),
      cells: [
        cell.scenario,
        cell.config,
        ruleRef(rule.rule),
        rule.label,
        `${rule.trials}/${n} trials${rule.mustFire ? '' : ' (may not fire)'}`,
        String(rule.firings),
      ],
    }));
  });
}

/** Why each cell of the run is not exercised, one line per silent rule. */
export const notExercisedLines = (run: RunResult): string[] =>
  run.cells.flatMap((c) =>
    unexercised(c.metrics.coverage, c.metrics.trials).map(
      (r) => `${c.scenario} × ${c.config}: ${notExercisedMessage(r, c.metrics.trials)}`,
    ),
  );
