import type { SweepResult } from '../../sweep/runSweep.js';
import type { SweepJson } from './sweepJson.js';
import type { SweepGates } from '../../sweep/sweepGates.js';
import { formatRate, plural } from '../format.js';
import { formatRateWithInterval } from '../intervalText.js';
import {
  configCurves,
  lambdaSpan,
  scenarioCurves,
  sweepColumnWord,
  sweepTrialCount,
  targetWords,
  type SweepCurve,
  type SweepFigure,
} from './sweepFigures.js';
import { countColumns, type ColumnWord } from '../columnWord.js';

/** A table as text cells, for the console and Markdown reporters alike. */
export interface SweepTable {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** `0.750 / 0.250`: pass^1, then pass^k. */
export const figureCell = (f: SweepFigure | undefined): string =>
  f === undefined || f.trials === 0 ? 'n/a' : `${formatRate(f.pass1)} / ${formatRate(f.passK)}`;

/** `0.750 [0.30, 0.95]`: a rate of the figure and its interval. */
export const rateCell = (f: SweepFigure | undefined, which: 'pass1' | 'passK'): string =>
  f === undefined || f.trials === 0
    ? 'n/a'
    : formatRateWithInterval(
        formatRate(f[which]),
        (which === 'pass1' ? f.pass1Interval : f.passKInterval) ?? undefined,
      );

/** Columns a table reads left-aligned: the names, not the figures. */
export const LABEL_COLUMNS: readonly string[] = [
  'configuration',
  'agent',
  'agent or configuration',
  'scenario',
  'rate',
];

const lambdaHeader = (lambdas: readonly number[]): string[] => lambdas.map((l) => `λ=${l}`);

/** Per series: a row per configuration (over every scenario), then a row per scenario and configuration. */
export function sweepTables(result: SweepResult): SweepTable[] {
  const byConfig = configCurves(result);
  const byScenario = scenarioCurves(result);
  const cells = (c: SweepCurve): string[] =>
    result.lambdas.map((l) => figureCell(c.points.find((p) => p.lambda === l)));
  const k = result.k;
  const word = sweepColumnWord(result);
  return result.series.flatMap(({ series }) => [
    {
      title: `${series.label}: pass^1 and pass^${k} with 95% intervals by ${word}, over ${plural(result.scenarios.length, 'scenario')}`,
      header: [word, 'rate', ...lambdaHeader(result.lambdas)],
      rows: byConfig
        .filter((c) => c.series === series.label)
        .flatMap((c) => {
          const at = (which: 'pass1' | 'passK'): string[] =>
            result.lambdas.map((l) =>
              rateCell(
                c.points.find((p) => p.lambda === l),
                which,
              ),
            );
          return [
            [c.config, 'pass^1', ...at('pass1')],
            ['', `pass^${k}`, ...at('passK')],
          ];
        }),
    },
    {
      title: `${series.label}: pass^1 / pass^${k} by scenario`,
      header: ['scenario', word, ...lambdaHeader(result.lambdas)],
      rows: byScenario.filter((c) => c.series === series.label).map((c) => [c.scenario ?? '', c.config, ...cells(c)]),
    },
  ]);
}

/** The first line of every sweep report. */
export function sweepHeadline(result: SweepResult): string {
  return headline({
    ...result,
    columns: sweepColumnWord(result),
    labels: result.series.map((s) => s.series.label),
    trials: sweepTrialCount(result),
  });
}

/** The headline of a sweep read back from sweep.json (`faultline view`). */
export const sweepJsonHeadline = (sweep: SweepJson['sweep']): string =>
  headline({ ...sweep, labels: sweep.series.map((s) => s.label) });

function headline(
  h: Pick<SweepResult, 'seed' | 'k' | 'scenarios' | 'configs' | 'lambdas' | 'target' | 'interrupted'> & {
    readonly columns: ColumnWord;
    readonly labels: readonly string[];
    readonly trials: number;
  },
): string {
  return (
    `seed ${h.seed}, k = ${h.k}, ${plural(h.scenarios.length, 'scenario')} × ` +
    `${countColumns(h.configs.length, h.columns)}, ${lambdaSpan(h.lambdas)}; faults ${h.labels.join(', ')} on ` +
    `${targetWords(h)}; ${plural(h.trials, 'trial')}${h.interrupted ? ' (interrupted: partial figures)' : ''}`
  );
}

/** Each point of each configuration's curve that had a failing trial, and the command that reruns one. */
export function sweepReplays(result: SweepResult): {
  readonly series: string;
  readonly config: string;
  readonly lambda: number;
  readonly failing: number;
  readonly replay: string;
}[] {
  return configCurves(result).flatMap((c) =>
    c.points.flatMap((p) =>
      p.replay === null
        ? []
        : [{ series: c.series, config: c.config, lambda: p.lambda, failing: p.trials - p.successes, replay: p.replay }],
    ),
  );
}

/** One line per gate: where it failed (series and λ, with the gate's own message), or that it held at every point judged. */
export function sweepGateLines(gates: SweepGates): { readonly passed: boolean; readonly text: string }[] {
  const span = gates.upTo === null ? 'at every λ' : `at every λ ≤ ${gates.upTo}`;
  return gates.gates.map((gate) => {
    const judged = gates.points.map((p) => ({ p, r: p.results.find((r) => r.gate === gate)! }));
    const failed = judged.filter(({ r }) => !r.passed);
    if (failed.length === 0) return { passed: true, text: `${gate} held ${span} (${plural(judged.length, 'point')})` };
    return {
      passed: false,
      text:
        `${gate} failed at ${failed.length} of ${plural(judged.length, 'point')}: ` +
        `${failed.map(({ p, r }) => `${p.series} λ=${p.lambda}: ${r.message}`).join('; ')}`,
    };
  });
}
