import type { RuleCoverage } from '../../runner/coverage.js';
import type { SweepResult } from '../../runner/sweep/runSweep.js';
import { silentRules } from '../../runner/sweep/sweepCoverage.js';
import type { SweepSeries } from '../../runner/sweep/sweepFaults.js';

/** One rule of one cell at one λ: how often it fired, and whether its silence leaves the cell not exercised. */
export interface SweepRuleAt {
  readonly lambda: number;
  /** The cell's trials at this λ. */
  readonly of: number;
  readonly rule: RuleCoverage;
  readonly silent: boolean;
}

/** One rule of one scenario × configuration across the λ grid. */
export interface SweepCoverageRow {
  readonly series: string;
  readonly scenario: string;
  readonly config: string;
  /** Its index in the cell's plan: the scenario's own rules, then the sweep's. */
  readonly rule: number;
  /** What it matches and its fault; for the sweep's rules, with `p=λ` for the probability that changes with λ. */
  readonly label: string;
  /** Whether the sweep added it (drawn at λ) rather than the scenario. */
  readonly swept: boolean;
  readonly points: readonly SweepRuleAt[];
}

/** `the sweep's rate_limit, p=λ`, or `p=λ/2` for one of two mixed kinds. */
const sweptLabel = (series: SweepSeries, i: number, target: SweepResult['target']): string =>
  `the sweep's ${series.faults[i]!.label}, any tool${target === 'any' ? ' calls and status queries' : ''} p=λ${series.faults.length > 1 ? `/${series.faults.length}` : ''}`;

/** A row per rule of each cell, per series, in the matrix's order: the coverage every sweep report shows. */
export function sweepCoverageRows(result: SweepResult): SweepCoverageRow[] {
  return result.series.flatMap(({ series, points }) => {
    const rows = new Map<string, { scenario: string; config: string; rule: number; label: string; swept: boolean; points: SweepRuleAt[] }>();
    for (const point of points) {
      for (const cell of point.run.cells) {
        const silent = new Set(silentRules({ ...point.run, cells: [cell] }).map((s) => s.rule.rule));
        const own = cell.metrics.coverage.length - series.faults.length;
        for (const rule of cell.metrics.coverage) {
          const key = `${cell.config}\u0000${cell.scenario}\u0000${rule.rule}`;
          let row = rows.get(key);
          const swept = rule.rule >= own;
          if (!row) rows.set(key, (row = { scenario: cell.scenario, config: cell.config, rule: rule.rule, label: swept ? sweptLabel(series, rule.rule - own, result.target) : rule.label, swept, points: [] }));
          row.points.push({ lambda: point.lambda, of: cell.metrics.trials, rule, silent: silent.has(rule.rule) });
        }
      }
    }
    return [...rows.values()].map((r) => ({ series: series.label, ...r }));
  });
}

/** `3/4 5×`, `0/4 not exercised`, or `n/a` where the point did not run. */
export const coverageCell = (at: SweepRuleAt | undefined): string =>
  at === undefined || at.of === 0 ? 'n/a' : `${at.rule.trials}/${at.of} ${at.rule.firings}×${at.silent ? ' not exercised' : ''}`;

/** The coverage table's columns, then one per λ. */
export const SWEEP_COVERAGE_HEADER = ['scenario', 'configuration', 'rule', 'match, fault'] as const;

/** Per series, a table of each rule's trials fired in and firings at each λ. */
export function sweepCoverageTables(result: SweepResult): { readonly title: string; readonly header: readonly string[]; readonly rows: readonly (readonly string[])[] }[] {
  const rows = sweepCoverageRows(result);
  return result.series.flatMap(({ series }) => {
    const mine = rows.filter((r) => r.series === series.label);
    if (mine.length === 0) return [];
    return [
      {
        title: `${series.label}: fault coverage (trials each rule fired in / trials, and its firings)`,
        header: [...SWEEP_COVERAGE_HEADER, ...result.lambdas.map((l) => `λ=${l}`)],
        rows: mine.map((r) => [r.scenario, r.config, `faults[${r.rule}]`, r.label, ...result.lambdas.map((l) => coverageCell(r.points.find((p) => p.lambda === l)))]),
      },
    ];
  });
}

/** One line per rule that left a cell of a point not exercised: `rate_limit λ=0.1 × s × naive: faults[1] (…) never fired in 4 trials: …`. */
export function sweepNotExercised(result: SweepResult): string[] {
  return result.series.flatMap(({ series, points }) =>
    points.flatMap((p) => silentRules(p.run).map((s) => `${series.label} λ=${p.lambda} × ${s.scenario} × ${s.config}: ${s.message}`)),
  );
}

/** The note under every coverage table: how a sweep counts coverage. */
export const sweepCoverageNote = (result: SweepResult): string =>
  result.mayNotFire
    ? "The scenarios' own rules count per cell, as in faultline run; the sweep's rules may fire in no trial (--may-not-fire)."
    : "The scenarios' own rules count per cell, as in faultline run. The sweep's rules are draws at λ: a cell may meet none, but one that fired in no trial of a whole point at λ > 0 leaves every cell of it not exercised (at λ = 0 none can fire).";
