import { ruleRef, type RuleCoverage } from '../../stats/coverage.js';
import { faultLabel } from '../../sweep/sweepFaults.js';
import type { SweepJson } from './sweepJson.js';

type Sweep = SweepJson['sweep'];
type Series = Sweep['series'][number];

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
  /** What it matches and its fault; for the sweep's rules, `p=λ` for the probability that changes with λ. */
  readonly label: string;
  /** Whether the sweep added it (drawn at λ) rather than the scenario. */
  readonly swept: boolean;
  readonly points: readonly SweepRuleAt[];
}

/** `the sweep's rate_limit, any tool p=λ`, or `p=λ/2` for one of two mixed kinds. */
const sweptLabel = (series: Series, i: number, target: Sweep['target']): string =>
  `the sweep's ${faultLabel(series.faults[i]!)}, any ` +
  `tool${target === 'any' ? ' calls and status queries' : ''} p=λ${series.faults.length > 1 ? `/${series.faults.length}` : ''}`;

/**
 * A row per rule of each cell, per series, in the matrix's order: the coverage every sweep report shows (read from
 * sweep.json, so `view` draws it too).
 */
export function sweepCoverageRows(sweep: Sweep): SweepCoverageRow[] {
  return sweep.series.flatMap((series) => {
    const rows = new Map<
      string,
      { scenario: string; config: string; rule: number; label: string; swept: boolean; points: SweepRuleAt[] }
    >();
    for (const point of series.points) {
      for (const cell of point.cells) {
        const own = cell.coverage.length - series.faults.length;
        for (const rule of cell.coverage) {
          const key = `${cell.config}\u0000${cell.scenario}\u0000${rule.rule}`;
          let row = rows.get(key);
          const swept = rule.rule >= own;
          if (!row)
            rows.set(
              key,
              (row = {
                scenario: cell.scenario,
                config: cell.config,
                rule: rule.rule,
                label: swept ? sweptLabel(series, rule.rule - own, sweep.target) : rule.label,
                swept,
                points: [],
              }),
            );
          row.points.push({
            lambda: point.lambda,
            of: cell.trials,
            rule,
            silent: cell.unexercised.includes(rule.rule),
          });
        }
      }
    }
    return [...rows.values()].map((r) => ({ series: series.label, ...r }));
  });
}

/** `3/4 5×`, `0/4 0× not exercised`, or `n/a` where the point did not run. */
export const coverageCell = (at: SweepRuleAt | undefined): string =>
  at === undefined || at.of === 0
    ? 'n/a'
    : `${at.rule.trials}/${at.of} ${at.rule.firings}×${at.silent ? ' not exercised' : ''}`;

/** The coverage table's columns (the second named for what the sweep's columns are), then one per λ. */
export const sweepCoverageHeader = (sweep: Pick<Sweep, 'columns'>): string[] => [
  'scenario',
  sweep.columns,
  'rule',
  'match, fault',
];

/** Per series, a table of each rule's trials fired in and firings at each λ. */
export function sweepCoverageTables(
  sweep: Sweep,
): { readonly title: string; readonly header: readonly string[]; readonly rows: readonly (readonly string[])[] }[] {
  const rows = sweepCoverageRows(sweep);
  return sweep.series.flatMap((series) => {
    const mine = rows.filter((r) => r.series === series.label);
    if (mine.length === 0) return [];
    return [
      {
        title: `${series.label}: fault coverage (trials each rule fired in / trials, and its firings)`,
        header: [...sweepCoverageHeader(sweep), ...sweep.lambdas.map((l) => `λ=${l}`)],
        rows: mine.map((r) => [
          r.scenario,
          r.config,
          ruleRef(r.rule),
          r.label,
          ...sweep.lambdas.map((l) => coverageCell(r.points.find((p) => p.lambda === l))),
        ]),
      },
    ];
  });
}

/** The note under every coverage table: how a sweep counts coverage. */
export const sweepCoverageNote = (mayNotFire: boolean): string =>
  mayNotFire
    ? "The scenarios' own rules count per cell, as in faultline run; the sweep's rules may fire in no trial (--may-not-fire)."
    : "The scenarios' own rules count per cell, as in faultline run. The sweep's rules are draws at " +
      'λ: a cell may meet none, but one that fired in no trial of a whole point at λ > 0 leaves every ' +
      'cell of it not exercised (at λ = 0 none can fire).';
