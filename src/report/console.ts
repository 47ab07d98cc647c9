import type { GateResult } from '../stats/gates.js';
import type { RunResult } from '../runner/run.js';
import { mark, painter, type Painter } from './paint.js';
import { intervalNote, runLine, summaryHeader, summaryTables, timeBasis } from './summaryRows.js';
import { summaryTail } from './summaryTail.js';
import { liveLines } from './liveLines.js';
import { alignTable, type Align } from './table.js';
import { crowdHeader, CROWD_LEGEND, crowdRows } from './crowdRows.js';
import { recoveryHeader, RECOVERY_LEGEND, recoveryRows } from './recoveryRows.js';
import { coverageHeader, coverageRows } from './coverageRows.js';
import { columnWord } from './columnWord.js';
import { loadSeries, sparkline } from './loadSeries.js';

export interface ConsoleReportOptions {
  readonly gates: readonly GateResult[];
  /** ANSI colours; decide with `colorEnabled` (default: none). */
  readonly color?: boolean;
  /** `--quiet`: only the failing rows, the gates and the failures; the cells that passed are counted in one line. */
  readonly quiet?: boolean;
}

/**
 * Whether to colour terminal output: only on a TTY, never when `NO_COLOR` is set
 * (no-color.org), always when `FORCE_COLOR` is set to anything but `0`.
 */
export function colorEnabled(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '' && env['FORCE_COLOR'] !== '0') return true;
  return stream.isTTY === true;
}

/**
 * The terminal summary: an aligned table per configuration, the gates, and for each failing
 * cell its first failing verdict and the command that replays it. Returns text; the CLI prints it.
 */
export function renderConsoleReport(run: RunResult, options: ConsoleReportOptions): string {
  const p = painter(options.color ?? false);
  const ok = (passed: boolean): string => mark(p, passed);
  const out = [`${p.bold('faultline')}  ${runLine(run)}`];
  if (run.interrupted) out.push(p.red('interrupted: the figures cover only the trials that finished'));

  if (options.quiet === true)
    return `${[...out, ...quietLines(run, p), ...summaryTail(run, options.gates, p)].join('\n')}\n`;

  const tables = summaryTables(run);
  for (const { config, rows } of tables) out.push(...summaryTable(run, p, config, rows, ok));
  if (tables.length > 0) out.push(`    ${p.dim(intervalNote())}`);

  const live = liveLines(run);
  if (live.length > 0) out.push('', ...live.map((l) => (l.startsWith('cost') ? l : p.red(l))));
  out.push(
    ...crowdLines(run, p),
    ...recoveryLines(run, p),
    ...coverageLines(run, p),
    ...summaryTail(run, options.gates, p),
  );
  return `${out.join('\n')}\n`;
}

/** `--quiet`: the failing cells' rows only, under a line that counts the cells that passed. */
function quietLines(run: RunResult, p: Painter): string[] {
  const tables = summaryTables(run).map(({ config, rows }) => ({
    config,
    rows: rows.filter((r, i) => !r.passed && i < run.cells.filter((c) => c.config === config).length),
  })); // the totals row comes last
  const passed = run.cells.filter(
    (c) => c.metrics.successes === c.metrics.trials && !(c.metrics.trials === 0 && (c.metrics.infraErrors ?? 0) > 0),
  ).length;
  const out = ['', `${mark(p, passed === run.cells.length)} ${passed} of ${run.cells.length} cells passed every trial`];
  for (const { config, rows } of tables) {
    if (rows.length === 0) continue;
    out.push(...summaryTable(run, p, config, rows, () => mark(p, false)));
  }
  return out;
}

/** A configuration's table of the summary, a judged row marked by `ok` (an unjudged one by a dash). */
function summaryTable(
  run: RunResult,
  p: Painter,
  config: string,
  rows: ReturnType<typeof summaryTables>[number]['rows'],
  ok: (passed: boolean) => string,
): string[] {
  const header = summaryHeader(run.k, timeBasis(run.cells));
  const line = (r: (typeof rows)[number], text: string): string =>
    `  ${r.unjudged !== undefined ? p.dim('–') : ok(r.passed)} ${text}`;
  return tableSection(p, config, header, rows, line, SUMMARY_ALIGN);
}

/** The summary table's columns: the scenario, then its figures. */
const SUMMARY_ALIGN: readonly Align[] = ['left', ...Array<'right'>(8).fill('right')];

/** A table's columns: the two that name its row (scenario and configuration, or agent), then its figures. */
const namesThenFigures = (header: readonly string[]): Align[] => [
  'left',
  'left',
  ...Array<'right'>(header.length - 2).fill('right'),
];

/**
 * A table of the summary: an empty line, the title, the header dimmed and a line per row, from
 * its aligned text (a mark before it, or a colour over it). Colour goes on after alignment so
 * escape codes never count towards a column's width.
 */
function tableSection<R extends { readonly cells: readonly string[] }>(
  p: Painter,
  title: string,
  header: readonly string[],
  rows: readonly R[],
  line: (r: R, text: string) => string,
  align: readonly Align[] = namesThenFigures(header),
): string[] {
  const lines = alignTable([header, ...rows.map((r) => r.cells)], align);
  return ['', p.bold(title), `    ${p.dim(lines[0]!)}`, ...rows.map((r, i) => line(r, lines[i + 1]!))];
}

/** Scenarios with heal and recovery: how each cell came back once the faults ended (none when no scenario expects it). */
export function recoveryLines(run: RunResult, p: Painter): string[] {
  const rows = recoveryRows(run);
  if (rows.length === 0) return [];
  const header = recoveryHeader(columnWord(run.cells));
  return [
    ...tableSection(p, 'recovery after the heal', header, rows, (r, text) => `  ${mark(p, !r.failed)} ${text}`),
    p.dim(`    ${RECOVERY_LEGEND}`),
  ];
}

/** Scenarios with many agents: the figures of the crowd, a row per cell (none when no scenario ran many). */
export function crowdLines(run: RunResult, p: Painter): string[] {
  const crowd = crowdRows(run);
  if (crowd.length === 0) return [];
  const header = crowdHeader(columnWord(run.cells));
  return [
    ...tableSection(p, 'crowds', header, crowd, (r, text) => (r.amplified ? p.red(`  ⚠ ${text}`) : `    ${text}`)),
    p.dim(`    ${CROWD_LEGEND}`),
  ];
}

/**
 * `compare`: each crowd scenario's goodput (calls that succeeded) and offered load (requests that
 * reached the services, retries included) per virtual second, one sparkline per configuration on
 * a shared scale, with the figures per 5 s under it. What a metastable failure looks like: the
 * offered load stays up while goodput stays at zero, long after the trigger is gone.
 */
export function loadOverTimeLines(run: RunResult, p: Painter): string[] {
  const series = loadSeries(run);
  if (series.length === 0) return [];
  const out: string[] = ['', p.bold('goodput and offered load over virtual time (per second, mean over trials)')];
  for (const scenario of [...new Set(series.map((s) => s.scenario))]) {
    const mine = series.filter((s) => s.scenario === scenario);
    // Each on its own scale: the offered load of a storm would flatten the goodput line.
    const top = {
      goodput: Math.max(1, ...mine.flatMap((s) => s.goodput)),
      offered: Math.max(1, ...mine.flatMap((s) => s.offered)),
    };
    const seconds = mine[0]!.goodput.length;
    const every = 5;
    const marks = Array.from({ length: Math.ceil(seconds / every) }, (_, i) => String(i * every).padEnd(every)).join(
      '',
    );
    const rows: string[][] = [];
    for (const s of mine) {
      const per5 = (v: readonly number[]): string =>
        Array.from({ length: Math.ceil(v.length / every) }, (_, i) =>
          mean(v.slice(i * every, (i + 1) * every)).toFixed(1),
        ).join(' ');
      rows.push(
        [s.config, 'goodput', `|${sparkline(s.goodput, top.goodput)}|`, per5(s.goodput)],
        ['', 'offered', `|${sparkline(s.offered, top.offered)}|`, per5(s.offered)],
      );
    }
    const lines = alignTable([['', '', ` ${marks.trimEnd()}`, 'per 5 s'], ...rows], ['left', 'left', 'left', 'left']);
    const goodput = `goodput drawn from 0 to ${top.goodput.toFixed(1)}/s`;
    const offered = `offered load from 0 to ${top.offered.toFixed(1)}/s`;
    out.push(
      `  ${p.bold(scenario)} ${p.dim(`(time in virtual seconds; ${goodput}, ${offered})`)}`,
      ...lines.map((l, i) => (i === 0 ? p.dim(`    ${l}`) : `    ${l}`)),
    );
  }
  return out;
}

const mean = (v: readonly number[]): number => (v.length === 0 ? 0 : v.reduce((a, b) => a + b, 0) / v.length);

/**
 * Fault coverage: each rule of each cell, the trials it fired in and its firings; a silent rule is marked (none when
 * no cell has a rule).
 */
export function coverageLines(run: RunResult, p: Painter): string[] {
  const rows = coverageRows(run);
  if (rows.length === 0) return [];
  return tableSection(
    p,
    'fault coverage',
    coverageHeader(columnWord(run.cells)),
    rows,
    (r, text) => (r.silent ? p.red(`  ✗ ${text}  not exercised`) : `  ${mark(p, true)} ${text}`),
    ['left', 'left', 'left', 'left', 'right', 'right'],
  );
}
