import type { RunResult } from '../../runner/run.js';
import { formatRate, formatRatio, formatSeconds, plural } from '../format.js';
import { columnWord, countColumns } from '../columnWord.js';
import { formatRateWithInterval } from '../intervalText.js';
import { intervalNote, timeBasis, timeHeader } from '../summaryRows.js';
import { crowdSections } from './crowdHtml.js';
import type { ChartSpec, HtmlReport, HtmlTable } from './HtmlReport.js';

type ConfigRow = RunResult['byConfig'][number];

/** `compare.html` for `faultline compare`: the configurations across the scenario library. */
export function runComparisonHtmlReport(run: RunResult): HtmlReport {
  return {
    title: 'faultline compare',
    subtitle:
      `seed ${run.seed}, k = ${run.k}, ${plural(run.scenarios.length, 'scenario')} × ` +
      `${countColumns(run.configs.length, columnWord(run.cells))}${run.interrupted ? ' (interrupted: partial figures)' : ''}.`,
    sections: [
      {
        id: 'run',
        title: 'All scenarios',
        description:
          `Each scenario is a task for pass^k; amplification counts every send to the ` +
          `service side per logical operation, every retry layer included (R10). ${intervalNote()}.`,
        table: configTable(run),
        flags: run.byConfig
          .filter((m) => m.failingScenarios.length > 0)
          .map(
            (m) =>
              `${m.config}: ${m.failingScenarios.length} scenario(s) with a failing trial: ${m.failingScenarios.join(', ')}`,
          ),
        charts: configCharts(run),
      },
      // Scenarios with many agents: their crowd figures, a section each.
      ...crowdSections(run),
    ],
  };
}

/** A row per configuration, over every scenario. */
function configTable(run: RunResult): HtmlTable {
  const k = run.k;
  return {
    // With k = 1, pass^k is pass^1: one column, one chart.
    header: [
      columnWord(run.cells),
      'scenarios',
      'pass^1',
      ...(k > 1 ? [`pass^${k}`] : []),
      'trials passed',
      'dup',
      'budget',
      'amp',
      'p95',
      'failing scenarios',
    ],
    rows: run.byConfig.map((m) => ({
      cells: [
        m.config,
        String(m.scenarios),
        formatRateWithInterval(formatRate(m.passHat[0]), m.intervals.hat[0]),
        ...(k > 1 ? [formatRateWithInterval(formatRate(m.passHat[k - 1]), m.intervals.hat[k - 1])] : []),
        `${m.successes}/${m.trials}`,
        String(m.duplicateEffects),
        String(m.budgetViolations),
        formatRatio(m.amplification),
        formatSeconds(m.durationMs.p95),
        m.failingScenarios.join(', '),
      ],
      flagged: m.failingScenarios.length > 0,
    })),
  };
}

/** A bar chart per figure, a bar per configuration (pass^k red where a scenario failed), and pass^k against k. */
function configCharts(run: RunResult): ChartSpec[] {
  const k = run.k;
  const rows = run.byConfig;
  const labels = rows.map((m) => m.config);
  const failing = rows.map((m) => m.failingScenarios.length > 0);
  const bar = (
    key: string,
    title: string,
    unit: string,
    value: (m: ConfigRow) => number,
    flagged = labels.map(() => false),
  ): ChartSpec => ({
    kind: 'bar',
    id: `run-${key}`,
    title,
    unit,
    labels,
    values: rows.map(value),
    flagged,
  });
  return [
    bar('pass1', 'pass^1', 'rate', (m) => m.passHat[0] ?? 0, failing),
    ...(k > 1 ? [bar('passk', `pass^${k}`, 'rate', (m) => m.passHat[k - 1] ?? 0, failing)] : []),
    bar('duplicates', 'Duplicate effects', 'effects', (m) => m.duplicateEffects),
    bar('budget', 'Budget violations', 'trials', (m) => m.budgetViolations),
    bar('amplification', 'Amplification: sends per logical operation', 'sends / operation', (m) => m.amplification),
    bar('p95', `${timeHeader(timeBasis(run.cells))} per trial`, 's', (m) => m.durationMs.p95 / 1000),
    {
      kind: 'line',
      id: 'run-passk-curve',
      title: 'pass^k against k',
      x: 'k',
      y: 'pass^k',
      series: rows.map((m) => ({ label: m.config, points: m.passHat.map((v, i) => [i + 1, v] as const) })),
    },
  ];
}
