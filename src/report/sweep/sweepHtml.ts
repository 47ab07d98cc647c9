import { faultLabel } from '../../sweep/sweepFaults.js';
import { ruleRef } from '../../stats/coverage.js';
import type { SweepJson } from './sweepJson.js';
import type { ChartSpec, HtmlReport, HtmlSection, HtmlTable } from '../html/HtmlReport.js';
import { intervalNote } from '../summaryRows.js';
import { figureCell, rateCell, sweepJsonHeadline } from './sweepTables.js';
import { coverageCell, sweepCoverageHeader, sweepCoverageNote, sweepCoverageRows } from './sweepCoverageRows.js';

/** A curve as sweep.json holds it. */
type SweepCurve = SweepJson['sweep']['byConfig'][number];

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A line per curve: `pick` of each point against λ (points where nothing ran are left out), with its 95% band when `withBand`. */
function lineChart(
  id: string,
  title: string,
  y: string,
  curves: readonly SweepCurve[],
  label: (c: SweepCurve) => string,
  pick: 'pass1' | 'passK',
  withBand: boolean,
): ChartSpec {
  return {
    kind: 'line',
    id,
    title,
    x: 'λ (fault probability per delivery)',
    y,
    series: curves.map((c) => {
      const interval = pick === 'pass1' ? 'pass1Interval' : 'passKInterval';
      const band = withBand
        ? c.points.flatMap((p) => (p[interval] === null ? [] : [[p.lambda, p[interval][0], p[interval][1]] as const]))
        : [];
      return {
        label: label(c),
        points: c.points.flatMap((p) => (p[pick] === null ? [] : [[p.lambda, p[pick]] as const])),
        ...(band.length > 0 && { band }),
      };
    }),
  };
}

/**
 * sweep.html: per series, pass^k and pass^1 against λ with a line per configuration, the
 * figures as a table; then each configuration's scenarios, a line per scenario; then each
 * rule's coverage. Drawn from sweep.json alone, so `faultline view sweep.json` draws it again.
 */
export function sweepHtmlReport(json: SweepJson): HtmlReport {
  const result = json.sweep;
  const coverage = sweepCoverageRows(result);
  // Indices keep ids unique where two labels slug alike; the slug keeps them readable.
  const sections: HtmlSection[] = result.series.flatMap((series, si) => {
    const id = `${si}-${slug(series.label)}`;
    return [
      seriesSection(json, series, id),
      scenariosSection(result, series.label, id),
      ...coverageSection(result, coverage, series.label, id),
    ];
  });
  return { title: 'faultline sweep', subtitle: `${sweepJsonHeadline(result)}.`, sections };
}

type SweepResultJson = SweepJson['sweep'];
type SweepSeriesJson = SweepResultJson['series'][number];

/** A table header: `first`, then a column per λ. */
const lambdaHeader = (result: SweepResultJson, first: readonly string[]): string[] => [
  ...first,
  ...result.lambdas.map((l) => `λ=${l}`),
];

const failing = (c: SweepCurve): boolean => c.points.some((p) => p.successes < p.trials);

/** One rate of a curve at every λ, after `first` and the rate's name. */
function rateRow(
  result: SweepResultJson,
  c: SweepCurve,
  first: string,
  rate: string,
  pick: 'pass1' | 'passK',
): HtmlTable['rows'][number] {
  return {
    cells: [
      first,
      rate,
      ...result.lambdas.map((l) =>
        rateCell(
          c.points.find((p) => p.lambda === l),
          pick,
        ),
      ),
    ],
    flagged: failing(c),
  };
}

/** A series' configurations: pass^1 and pass^k at every λ, and a chart of each. */
function seriesSection(json: SweepJson, series: SweepSeriesJson, id: string): HtmlSection {
  const result = json.sweep;
  const k = result.k;
  const mine = result.byConfig.filter((c) => c.series === series.label);
  return {
    id: `sweep-${id}`,
    title: `${series.label}: pass^${k} against λ`,
    description: series.mix
      ? `The kinds ${series.faults.map(faultLabel).join(', ')} share λ: each hits a delivery with ` +
        `probability λ/${series.faults.length}. Each scenario is a task; the shaded bands are 95% intervals.`
      : `${series.label} hits each delivery with probability λ, after each scenario's own faults. ` +
        `Each scenario is a task; the shaded bands are 95% intervals.`,
    table: {
      header: lambdaHeader(result, [result.columns, 'rate']),
      rows: mine.flatMap((c) => [
        rateRow(result, c, c.config, 'pass^1', 'pass1'),
        rateRow(result, c, '', `pass^${k}`, 'passK'),
      ]),
      legend: intervalNote(),
    },
    // A gate that failed at a point of this series is pointed out above its charts.
    flags: json.gates.points
      .filter((p) => p.series === series.label && !p.passed)
      .flatMap((p) => p.results.filter((r) => !r.passed).map((r) => `gate at λ=${p.lambda}: ${r.message}`)),
    charts: [
      lineChart(
        `sweep-${id}-passk`,
        `pass^${k} against λ: ${series.label} (shaded: 95% interval)`,
        `pass^${k}`,
        mine,
        (c) => c.config,
        'passK',
        true,
      ),
      lineChart(
        `sweep-${id}-pass1`,
        `pass^1 against λ: ${series.label} (shaded: 95% interval)`,
        'pass^1',
        mine,
        (c) => c.config,
        'pass1',
        true,
      ),
    ],
  };
}

/** A series' scenarios under each configuration: pass^1 / pass^k at every λ, and a chart per configuration. */
function scenariosSection(result: SweepResultJson, label: string, id: string): HtmlSection {
  const scenarios = result.byScenario.filter((c) => c.series === label);
  return {
    id: `sweep-${id}-scenarios`,
    title: `${label}: by scenario`,
    description: `pass^1 / pass^${result.k} of each scenario under each ${result.columns}.`,
    table: {
      header: lambdaHeader(result, ['scenario', result.columns]),
      rows: scenarios.map((c) => ({
        cells: [
          c.scenario ?? '',
          c.config,
          ...result.lambdas.map((l) => figureCell(c.points.find((p) => p.lambda === l))),
        ],
        flagged: failing(c),
      })),
    },
    flags: [],
    charts: result.configs.map((config, ci) =>
      lineChart(
        `sweep-${id}-scenarios-${ci}-${slug(config)}`,
        `pass^1 against λ by scenario: ${label} × ${config}`,
        'pass^1',
        scenarios.filter((c) => c.config === config),
        (c) => c.scenario ?? '',
        'pass1',
        false,
      ),
    ),
  };
}

/** Each rule's trials fired in and firings at each λ; a row flagged where a point left its cell not exercised. */
function coverageSection(
  result: SweepResultJson,
  coverage: ReturnType<typeof sweepCoverageRows>,
  label: string,
  id: string,
): HtmlSection[] {
  const rows = coverage.filter((r) => r.series === label);
  if (rows.length === 0) return [];
  return [
    {
      id: `sweep-${id}-coverage`,
      title: `${label}: fault coverage`,
      description:
        'Per rule of each cell: the trials it fired in out of the trials at that λ, and its firings. ' +
        'A cell marked "not exercised" met none of a fault it had to meet.',
      table: {
        header: lambdaHeader(result, sweepCoverageHeader(result)),
        rows: rows.map((r) => ({
          cells: [
            r.scenario,
            r.config,
            ruleRef(r.rule),
            r.label,
            ...result.lambdas.map((l) => coverageCell(r.points.find((p) => p.lambda === l))),
          ],
          flagged: r.points.some((p) => p.silent),
        })),
        legend: sweepCoverageNote(result.mayNotFire),
      },
      flags: result.notExercised.filter((l) => l.startsWith(`${label} λ=`)).map((l) => `not exercised: ${l}`),
      charts: [],
    },
  ];
}
