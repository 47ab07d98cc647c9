import type { GateResult } from '../stats/gates.js';
import type { Cell, RunResult } from '../runner/run.js';
import { formatRate, formatRatio, formatSeconds } from '../report/format.js';
import { formatRateWithInterval } from '../report/intervalText.js';
import { intervalNote, runLine } from '../report/summaryRows.js';
import type { PassIntervalCurves } from '../stats/intervals.js';
import { painter, type Paint, type Painter } from '../report/paint.js';
import { summaryTail } from '../report/summaryTail.js';
import { crowdLines, loadOverTimeLines } from '../report/console.js';

/** A table cell: its text (which sets the width) and how to colour it once padded. */
interface Slot {
  readonly text: string;
  readonly align: 'left' | 'right';
  readonly paint?: Paint;
}

// With k = 1, pass^k is pass^1: shown once.
const groupHeader = (k: number): Slot[] =>
  ['', 'pass^1', ...(k > 1 ? [`pass^${k}`] : []), 'dup', 'amp', 'p95'].map((h, i) =>
    slot(h, i === 0 ? 'left' : 'right'),
  );
const slot = (text: string, align: Slot['align'] = 'right', paint?: Paint): Slot =>
  paint ? { text, align, paint } : { text, align };
const width = (s: string): number => [...s].length;
const missing = (k: number): Slot[] => [
  slot(' ', 'left'),
  ...Array.from({ length: groupHeader(k).length - 1 }, () => slot('-')),
];

interface Figures {
  readonly passed: boolean;
  readonly passHat: readonly number[];
  readonly intervals: PassIntervalCurves;
  readonly duplicates: number;
  readonly amplification: number;
  readonly p95: number;
}

function group(f: Figures | undefined, k: number, p: Painter): Slot[] {
  if (f === undefined) return missing(k);
  return [
    slot(f.passed ? '✓' : '✗', 'left', f.passed ? p.green : p.red),
    slot(formatRateWithInterval(formatRate(f.passHat[0]), f.intervals.hat[0])),
    ...(k > 1 ? [slot(formatRateWithInterval(formatRate(f.passHat[k - 1]), f.intervals.hat[k - 1]))] : []),
    slot(String(f.duplicates)),
    slot(formatRatio(f.amplification)),
    slot(formatSeconds(f.p95)),
  ];
}

const cellFigures = (c: Cell | undefined): Figures | undefined =>
  c && {
    passed: c.metrics.successes === c.metrics.trials,
    passHat: c.metrics.passHat,
    intervals: c.metrics.intervals,
    duplicates: c.metrics.duplicateEffects,
    amplification: c.metrics.amplification,
    p95: c.metrics.durationMs.p95,
  };

function totalFigures(run: RunResult, config: string): Figures | undefined {
  const total = run.byConfig.find((m) => m.config === config);
  if (total === undefined) return undefined;
  return {
    passed: total.failingScenarios.length === 0,
    passHat: total.passHat,
    intervals: total.intervals,
    duplicates: total.duplicateEffects,
    amplification: total.amplification,
    p95: total.durationMs.p95,
  };
}

/**
 * `faultline compare`: one row per scenario, one column group per configuration (pass^1,
 * pass^k, duplicate effects, amplification, p95 time: virtual, or wall for a command agent), a totals row, then the gates and
 * failures as the console report shows them.
 */
export function renderComparison(
  run: RunResult,
  options: { readonly gates: readonly GateResult[]; readonly color?: boolean },
): string {
  const p = painter(options.color ?? false);
  const byKey = new Map(run.cells.map((c) => [`${c.config}\u0000${c.scenario}`, c]));
  const rows: Slot[][] = [
    [slot('scenario', 'left'), ...run.configs.flatMap(() => groupHeader(run.k))],
    ...run.scenarios.map((s) => [
      slot(s, 'left'),
      ...run.configs.flatMap((c) => group(cellFigures(byKey.get(`${c}\u0000${s}`)), run.k, p)),
    ]),
    [slot('all scenarios', 'left'), ...run.configs.flatMap((c) => group(totalFigures(run, c), run.k, p))],
  ];

  const COLUMNS = groupHeader(run.k).length;
  const widths: number[] = [];
  for (const row of rows) row.forEach((s, i) => (widths[i] = Math.max(widths[i] ?? 0, width(s.text))));
  const groupStart = (g: number): number => 1 + g * COLUMNS;
  const groupWidth = (g: number): number =>
    widths.slice(groupStart(g), groupStart(g) + COLUMNS).reduce((a, w) => a + w, 0) + 2 * (COLUMNS - 1);
  // A configuration name wider than its figures widens the group's last column.
  run.configs.forEach((config, g) => {
    const extra = width(config) - groupWidth(g);
    if (extra > 0) widths[groupStart(g) + COLUMNS - 1]! += extra;
  });

  const line = (row: readonly Slot[]): string => {
    const cells = row.map((s, i) => {
      const pad = ' '.repeat((widths[i] ?? 0) - width(s.text));
      const text = s.paint ? s.paint(s.text) : s.text;
      return s.align === 'right' ? pad + text : text + pad;
    });
    return [cells[0]!, ...run.configs.map((_, g) => cells.slice(groupStart(g), groupStart(g) + COLUMNS).join('  '))]
      .join('  │ ')
      .trimEnd();
  };
  const titles = [' '.repeat(widths[0]!), ...run.configs.map((c, g) => c + ' '.repeat(groupWidth(g) - width(c)))];
  const ruleWidth = widths[0]! + run.configs.reduce((a, _, g) => a + groupWidth(g) + 4, 0);

  const out = [`${p.bold('faultline compare')}  ${runLine(run)}`];
  if (run.interrupted) out.push(p.red('interrupted: the figures cover only the trials that finished'));
  out.push(
    '',
    p.bold(titles.join('  │ ').trimEnd()),
    p.dim(line(rows[0]!)),
    ...rows.slice(1, -1).map(line),
    p.dim('─'.repeat(ruleWidth)),
    line(rows.at(-1)!),
    p.dim(intervalNote()),
  );
  out.push(...crowdLines(run, p), ...loadOverTimeLines(run, p), ...summaryTail(run, options.gates, p));
  return `${out.join('\n')}\n`;
}
