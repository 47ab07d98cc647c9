import { notExercisedMessage, unexercised, type RuleCoverage } from '../stats/coverage.js';
import type { Cell, RunResult } from '../runner/run.js';

/**
 * A sweep point's matrix with its coverage judged as a sweep means it. The scenarios' own rules
 * count per cell, as in `faultline run`. The sweep's rules (the last `added` of every cell's
 * plan) are draws at probability λ, so one cell may rightly meet none of them; but a swept rule
 * that fired in no trial of any cell at λ > 0 means the point measured nothing of its fault (a
 * stream fault on agents that never stream, a target no call matches): it is then required in
 * every cell, and so leaves each of them not exercised. At λ = 0 nothing can fire, by design;
 * `mayNotFire` (`--may-not-fire`) lifts the requirement at every λ.
 */
export function judgePointCoverage(run: RunResult, added: number, lambda: number, mayNotFire: boolean): RunResult {
  if (added === 0 || lambda === 0 || mayNotFire) return run;
  const swept = (cell: Cell): readonly RuleCoverage[] => cell.metrics.coverage.slice(-added);
  const silent = Array.from({ length: added }, (_, i) => run.cells.every((c) => (swept(c)[i]?.trials ?? 0) === 0));
  if (!silent.includes(true) || run.cells.every((c) => c.metrics.trials === 0)) return run;
  const cells = run.cells.map((cell): Cell => {
    const first = cell.metrics.coverage.length - added;
    const coverage = cell.metrics.coverage.map((r, i) =>
      i >= first && silent[i - first] === true ? { ...r, mustFire: true } : r,
    );
    return { ...cell, metrics: { ...cell.metrics, coverage } };
  });
  return { ...run, cells };
}

/** One rule that left one cell of a sweep point not exercised. */
export interface SilentRule {
  readonly scenario: string;
  readonly config: string;
  readonly rule: RuleCoverage;
  readonly trials: number;
  /** `faults[1] (any tool p=0.1, rate_limit) never fired in 4 trials: the cell is not exercised`. */
  readonly message: string;
}

/** The rules that leave a point's cells not exercised, cell by cell. */
export const silentRules = (run: RunResult): SilentRule[] =>
  run.cells.flatMap((c) =>
    unexercised(c.metrics.coverage, c.metrics.trials).map((rule) => ({
      scenario: c.scenario,
      config: c.config,
      rule,
      trials: c.metrics.trials,
      message: notExercisedMessage(rule, c.metrics.trials),
    })),
  );

/**
 * One line per rule that left a cell of a point not exercised: `rate_limit λ=0.1 × s × naive: faults[1] (…) never
 * fired in 4 trials: …`.
 */
export function sweepNotExercised(result: {
  readonly series: readonly {
    readonly series: { readonly label: string };
    readonly points: readonly { readonly lambda: number; readonly run: RunResult }[];
  }[];
}): string[] {
  return result.series.flatMap(({ series, points }) =>
    points.flatMap((p) =>
      silentRules(p.run).map((s) => `${series.label} λ=${p.lambda} × ${s.scenario} × ${s.config}: ${s.message}`),
    ),
  );
}
