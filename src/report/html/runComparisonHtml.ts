import type { RunResult } from '../../runner/run.js';
import { formatRate, formatRatio, formatSeconds, plural } from '../format.js';
import { columnWord, countColumns } from '../columnWord.js';
import { formatRateWithInterval } from '../intervalText.js';
import { intervalNote, timeBasis, timeHeader } from '../summaryRows.js';
import { crowdSections } from './crowdHtml.js';
import type { ChartSpec, HtmlReport } from './HtmlReport.js';

/** `compare.html` for `faultline compare`: the configurations across the scenario library. */
export function runComparisonHtmlReport(run: RunResult): HtmlReport {
  const k = run.k;
  const rows = run.byConfig.map((m) => {
    return { m, intervals: m.intervals, p95: m.durationMs.p95 };
  });
  const labels = rows.map((r) => r.m.config);
  const failing = rows.map((r) => r.m.failingScenarios.length > 0);
  const bar = (
    key: string,
    title: string,
    unit: string,
    value: (r: (typeof rows)[number]) => number,
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
  return {
    title: 'faultline compare',
    subtitle:
      `seed ${run.seed}, k = ${k}, ${plural(run.scenarios.length, 'scenario')} × ` +
      `${countColumns(run.configs.length, columnWord(run.cells))}${run.interrupted ? ' (interrupted: partial figures)' : ''}.`,
    sections: [
      {
        id: 'run',
        title: 'All scenarios',
        description:
          `Each scenario is a task for pass^k; amplification counts every send to the ` +
          `service side per logical operation, every retry layer included (R10). ${intervalNote()}.`,
        table: {
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
          rows: rows.map(({ m, intervals, p95 }) => ({
            cells: [
              m.config,
              String(m.scenarios),
              formatRateWithInterval(formatRate(m.passHat[0]), intervals.hat[0]),
              ...(k > 1 ? [formatRateWithInterval(formatRate(m.passHat[k - 1]), intervals.hat[k - 1])] : []),
              `${m.successes}/${m.trials}`,
              String(m.duplicateEffects),
              String(m.budgetViolations),
              formatRatio(m.amplification),
              formatSeconds(p95),
              m.failingScenarios.join(', '),
            ],
            flagged: m.failingScenarios.length > 0,
          })),
        },
        flags: rows
          .filter((r) => r.m.failingScenarios.length > 0)
          .map(
            (r) =>
              `${r.m.config}: ${r.m.failingScenarios.length} scenario(s) with a failing trial: ${r.m.failingScenarios.join(', ')}`,
          ),
        charts: [
          bar('pass1', 'pass^1', 'rate', (r) => r.m.passHat[0] ?? 0, failing),
          ...(k > 1 ? [bar('passk', `pass^${k}`, 'rate', (r) => r.m.passHat[k - 1] ?? 0, failing)] : []),
          bar('duplicates', 'Duplicate effects', 'effects', (r) => r.m.duplicateEffects),
          bar('budget', 'Budget violations', 'trials', (r) => r.m.budgetViolations),
          bar(
            'amplification',
            'Amplification: sends per logical operation',
            'sends / operation',
            (r) => r.m.amplification,
          ),
          bar('p95', `${timeHeader(timeBasis(run.cells))} per trial`, 's', (r) => r.p95 / 1000),
          {
            kind: 'line',
            id: 'run-passk-curve',
            title: 'pass^k against k',
            x: 'k',
            y: 'pass^k',
            series: rows.map((r) => ({ label: r.m.config, points: r.m.passHat.map((v, i) => [i + 1, v] as const) })),
          },
        ],
      },
      // Scenarios with many agents: their crowd figures, a section each.
      ...crowdSections(run),
    ],
  };
}
