import { DEFAULT_CONFIDENCE, type PassIntervalCurves } from '../stats/intervals.js';
import type { CellMetrics } from '../stats/metrics.js';
import type { ConfigMetrics } from '../stats/configMetrics.js';
import type { Cell } from '../stats/CellTally.js';
import type { RunResult } from '../runner/run.js';
import { formatRate, formatRatio, formatSeconds, plural } from './format.js';
import { columnWord, countColumns } from './columnWord.js';
import { confidenceText, formatRateWithInterval } from './intervalText.js';

/**
 * What a run's times measure: `virtual` (faultline's clock, every in-process agent), `wall`
 * (every cell a `command` agent's, on the wall clock), or `mixed`, where each time says which.
 */
export type TimeBasis = 'virtual' | 'wall' | 'mixed';

export function timeBasis(cells: readonly Pick<Cell, 'clock'>[]): TimeBasis {
  const real = cells.filter((c) => c.clock === 'real').length;
  return real === 0 ? 'virtual' : real === cells.length ? 'wall' : 'mixed';
}

/** `p95 virtual time`, `p95 wall time`, or `p95 time` when the cells differ. */
export const timeHeader = (basis: TimeBasis, quantile = 'p95'): string =>
  basis === 'mixed' ? `${quantile} time` : `${quantile} ${basis} time`;

/** A time in seconds, with its clock named when the run mixes clocks: `8.291s wall`. */
export const formatTime = (ms: number, clock: Cell['clock'], basis: TimeBasis): string =>
  `${formatSeconds(ms)}${basis === 'mixed' ? (clock === 'real' ? ' wall' : ' virtual') : ''}`;

/**
 * The columns of the per-configuration summary table, shared by the console and markdown reporters (pass^k once when
 * k = 1: it is pass^1).
 */
export const summaryHeader = (k: number, basis: TimeBasis = 'virtual'): string[] => [
  'scenario',
  'pass^1',
  ...(k > 1 ? [`pass^${k}`] : []),
  `pass@${k}`,
  'trials passed',
  'duplicates',
  'budget violations',
  'amplification',
  timeHeader(basis),
];

export interface SummaryRow {
  readonly passed: boolean;
  readonly cells: readonly string[];
  /** Model tokens over the row's trials (R31), for reporters with room for them. */
  readonly tokens: { readonly input: number; readonly output: number };
  /** Set when the row has infra errors and no judged trial: how many. Its rates are no verdict on the agent, neither ✓ nor ✗. */
  readonly unjudged?: number;
}

/** The text for a row no trial of which was judged. */
export const unjudgedText = (n: number): string => `n/a: every trial was an infra error (${n})`;

/** The column reporters add for model usage, when a run has any: `1,204 / 310`. */
export const TOKENS_HEADER = 'model tokens in / out';
export const formatTokens = (t: SummaryRow['tokens']): string =>
  `${t.input.toLocaleString('en-US')} / ${t.output.toLocaleString('en-US')}`;

/** pass^1, pass^k (when k > 1) and pass@k, each with its interval: `0.750 [0.30, 0.95]`. */
const rates = (m: Pick<CellMetrics, 'passHat' | 'passAt'>, i: PassIntervalCurves, k: number): string[] => [
  formatRateWithInterval(formatRate(m.passHat[0]), i.hat[0]),
  ...(k > 1 ? [formatRateWithInterval(formatRate(m.passHat[k - 1]), i.hat[k - 1])] : []),
  formatRateWithInterval(formatRate(m.passAt[k - 1]), i.at[k - 1]),
];

/** What the brackets in the tables are, for the line under them. */
export const intervalNote = (confidence = DEFAULT_CONFIDENCE): string =>
  `[lower, upper]: ${confidenceText(confidence)} confidence interval (exact, Clopper–Pearson; over all scenarios, a seeded Monte Carlo)`;

const cellRow = (scenario: string, m: CellMetrics, k: number, clock: Cell['clock'], basis: TimeBasis): SummaryRow => ({
  // A cell with no judged trial did not pass: its provider failed every time (issue 43: it showed ✓).
  passed: m.trials > 0 && m.successes === m.trials,
  ...(m.trials === 0 && (m.infraErrors ?? 0) > 0 && { unjudged: m.infraErrors }),
  cells: [
    scenario,
    ...rates(m, m.intervals, k),
    m.trials === 0 && (m.infraErrors ?? 0) > 0 ? unjudgedText(m.infraErrors!) : `${m.successes}/${m.trials}`,
    String(m.duplicateEffects),
    String(m.budgetViolations),
    formatRatio(m.amplification),
    formatTime(m.durationMs.p95, clock, basis),
  ],
  tokens: m.tokens,
});

const totalRow = (m: ConfigMetrics, k: number): SummaryRow => ({
  passed: m.failingScenarios.length === 0,
  cells: [
    'all scenarios',
    ...rates(m, m.intervals, k),
    `${m.successes}/${m.trials}`,
    String(m.duplicateEffects),
    String(m.budgetViolations),
    formatRatio(m.amplification),
    '',
  ],
  tokens: m.tokens,
});

/** One table per configuration: a row per scenario, then the configuration's totals when it has several scenarios. */
export function summaryTables(run: RunResult): { config: string; rows: SummaryRow[] }[] {
  const basis = timeBasis(run.cells);
  return run.configs.flatMap((config) => {
    const cells = run.cells.filter((c) => c.config === config);
    if (cells.length === 0) return [];
    const rows = cells.map((c) => cellRow(c.scenario, c.metrics, run.k, c.clock, basis));
    const total = run.byConfig.find((m) => m.config === config);
    if (total && cells.length > 1) rows.push(totalRow(total, run.k));
    return [{ config, rows }];
  });
}

/** `seed 42, k = 4, 2 scenarios × 2 configurations, 16 trials (2 failed)`. */
export function runLine(run: RunResult): string {
  const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
  const failed = trials - run.cells.reduce((a, c) => a + c.metrics.successes, 0);
  const infra = run.cells.reduce((a, c) => a + (c.metrics.infraErrors ?? 0), 0);
  const shape = `${plural(run.scenarios.length, 'scenario')} × ${countColumns(run.configs.length, columnWord(run.cells))}`;
  const shard = run.shard ? `, shard ${run.shard.index}/${run.shard.count}` : '';
  return (
    `seed ${run.seed}, k = ${run.k}, ${shape}${shard}, ` +
    `${plural(trials, 'trial')} (${failed} failed)${infra > 0 ? `, ${plural(infra, 'infra error')} (not judged)` : ''}`
  );
}
