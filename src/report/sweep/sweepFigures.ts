import type { Interval, PassIntervalCurves } from '../../stats/intervals.js';
import type { Cell } from '../../runner/run.js';
import type { SweepPoint, SweepResult } from '../../sweep/runSweep.js';
import type { SweepSeries } from '../../sweep/sweepFaults.js';
import { sweepReplayCommand } from './sweepReplay.js';
import { unexercised } from '../../stats/coverage.js';
import { columnWord, type ColumnWord } from '../columnWord.js';

/** What a sweep's columns are, read from its points' cells (`configuration` before any point finished). */
export const sweepColumnWord = (result: SweepResult): ColumnWord =>
  columnWord(result.series.flatMap((s) => s.points.flatMap((p) => p.run.cells)));

const silentIn = (cells: readonly Cell[]): number =>
  cells.reduce((n, c) => n + unexercised(c.metrics.coverage, c.metrics.trials).length, 0);

/** The figures of one curve at one λ: every report (console, JSON, Markdown, chart) reads them from here. */
export interface SweepFigure {
  readonly lambda: number;
  readonly trials: number;
  readonly successes: number;
  /** pass^1 and pass^k (k = the sweep's k); null when no trial ran there (an interrupted sweep). */
  readonly pass1: number | null;
  readonly passK: number | null;
  /** Their 95% intervals (exact for one scenario, a seeded Monte Carlo over several: see `stats/intervals`); null with the figure. */
  readonly pass1Interval: Interval | null;
  readonly passKInterval: Interval | null;
  /** Scenarios with a failing trial (for a configuration's curve). */
  readonly failingScenarios: readonly string[];
  /** Reruns the first failing trial (of the first failing scenario, for a configuration's curve); null when none failed. */
  readonly replay: string | null;
  /** Fault rules that left a cell of this figure not exercised at this λ (see `judgePointCoverage`), over its cells. */
  readonly unexercised: number;
}

/** pass^1 and pass^k against λ, for a configuration over every scenario or for one scenario. */
export interface SweepCurve {
  readonly series: string;
  readonly config: string;
  /** Absent: the configuration over every scenario (each scenario a task for pass^k). */
  readonly scenario?: string;
  readonly points: readonly SweepFigure[];
}

/** The intervals of pass^1 and pass^k, as the point's run computed them (none where nothing ran, or k is past the trials). */
function intervalsOf(
  intervals: PassIntervalCurves | undefined,
  k: number,
): Pick<SweepFigure, 'pass1Interval' | 'passKInterval'> {
  const passK = intervals?.hat[k - 1];
  return passK === undefined
    ? { pass1Interval: null, passKInterval: null }
    : { pass1Interval: intervals!.hat[0]!, passKInterval: passK };
}

function replayOf(result: SweepResult, series: SweepSeries, point: SweepPoint, cell: Cell | undefined): string | null {
  const group = cell?.verdicts.find((g) => g.status === 'failed');
  if (cell === undefined || group === undefined) return null;
  return sweepReplayCommand({
    scenario: cell.refs.scenario,
    config:
      result.configless?.({
        scenario: cell.scenario,
        ...(cell.refs.agent !== undefined && { agent: cell.refs.agent }),
      }) === true
        ? undefined
        : cell.refs.config,
    ...(cell.refs.agent !== undefined && { agent: cell.refs.agent }),
    ...(cell.refs.behaviour !== undefined && { behaviour: cell.refs.behaviour }),
    series,
    lambda: point.lambda,
    seed: result.seed,
    target: result.target,
    trialIndex: group.first,
  });
}

/** What a figure reads of a configuration's totals or of one cell: trials, successes, the pass^k curve and its intervals. */
interface Tally {
  readonly trials: number;
  readonly successes: number;
  readonly passHat: readonly number[];
  readonly intervals: PassIntervalCurves;
}

/** One point of a curve: the tally's figures and intervals, and the replay of `failing`'s first failing trial. */
function figureOf(
  result: SweepResult,
  series: SweepSeries,
  point: SweepPoint,
  of: {
    readonly tally: Tally | undefined;
    readonly failingScenarios: readonly string[];
    readonly failing: Cell | undefined;
    readonly cells: readonly Cell[];
  },
): SweepFigure {
  const m = of.tally;
  return {
    lambda: point.lambda,
    trials: m?.trials ?? 0,
    successes: m?.successes ?? 0,
    pass1: m?.passHat[0] ?? null,
    passK: m?.passHat[result.k - 1] ?? null,
    ...intervalsOf(m?.intervals, result.k),
    failingScenarios: [...of.failingScenarios],
    replay: replayOf(result, series, point, of.failing),
    unexercised: silentIn(of.cells),
  };
}

/** One curve per series and configuration, aggregated over the scenarios. */
export function configCurves(result: SweepResult): SweepCurve[] {
  return result.series.flatMap(({ series, points }) =>
    result.configs.map((config) => ({
      series: series.label,
      config,
      points: points.map((point) => {
        const cells = point.run.cells.filter((c) => c.config === config);
        const tally = point.run.byConfig.find((c) => c.config === config);
        return figureOf(result, series, point, {
          tally,
          failingScenarios: tally?.failingScenarios ?? [],
          failing: cells.find((c) => c.metrics.successes < c.metrics.trials),
          cells,
        });
      }),
    })),
  );
}

/** One curve per series, configuration and scenario. */
export function scenarioCurves(result: SweepResult): SweepCurve[] {
  return result.series.flatMap(({ series, points }) =>
    result.configs.flatMap((config) =>
      result.scenarios.map((scenario) => ({
        series: series.label,
        config,
        scenario,
        points: points.map((point) => {
          const cell = point.run.cells.find((c) => c.config === config && c.scenario === scenario);
          const m = cell?.metrics;
          return figureOf(result, series, point, {
            tally: m,
            failingScenarios: m !== undefined && m.successes < m.trials ? [scenario] : [],
            failing: cell,
            cells: cell === undefined ? [] : [cell],
          });
        }),
      })),
    ),
  );
}

/** Trials the sweep ran, over every point. */
export const sweepTrialCount = (result: SweepResult): number =>
  result.series.reduce(
    (a, s) => a + s.points.reduce((b, p) => b + p.run.cells.reduce((c, cell) => c + cell.metrics.trials, 0), 0),
    0,
  );

/** `λ 0, 0.1 … 0.5`, for headings. */
export const lambdaSpan = (lambdas: readonly number[]): string =>
  lambdas.length <= 3 ? `λ ${lambdas.join(', ')}` : `λ ${lambdas[0]}, ${lambdas[1]} … ${lambdas.at(-1)}`;

/** What a sweep's faults hit, in words. */
export const targetWords = (result: Pick<SweepResult, 'target'>): string =>
  result.target === 'any' ? 'tool calls and status queries' : "tool calls (not the execution layer's status queries)";
