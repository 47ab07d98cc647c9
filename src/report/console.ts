import type { GateResult } from '../runner/gates.js';
import type { RunResult } from '../runner/run.js';
import { failingCells, notPassed, verdictLine } from './failures.js';
import { plural } from './format.js';
import { replayCommand } from './replay.js';
import { runLine, summaryHeader, summaryTables } from './summaryRows.js';
import { alignTable } from './table.js';

export interface ConsoleReportOptions {
  readonly gates: readonly GateResult[];
  /** ANSI colours; decide with `colorEnabled` (default: none). */
  readonly color?: boolean;
}

/**
 * Whether to colour terminal output: only on a TTY, never when `NO_COLOR` is set
 * (no-color.org), always when `FORCE_COLOR` is set to anything but `0`.
 */
export function colorEnabled(stream: { readonly isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '' && env['FORCE_COLOR'] !== '0') return true;
  return stream.isTTY === true;
}

type Paint = (text: string) => string;

function painter(color: boolean): { red: Paint; green: Paint; bold: Paint; dim: Paint } {
  const sgr = (open: number, close: number): Paint => (color ? (t) => `\u001b[${open}m${t}\u001b[${close}m` : (t) => t);
  return { red: sgr(31, 39), green: sgr(32, 39), bold: sgr(1, 22), dim: sgr(2, 22) };
}

/**
 * The terminal summary: an aligned table per configuration, the gates, and for each failing
 * cell its first failing verdict and the command that replays it. Returns text; the CLI prints it.
 */
export function renderConsoleReport(run: RunResult, options: ConsoleReportOptions): string {
  const p = painter(options.color ?? false);
  const ok = (passed: boolean): string => (passed ? p.green('✓') : p.red('✗'));
  const out = [`${p.bold('faultline')}  ${runLine(run)}`];
  if (run.interrupted) out.push(p.red('interrupted: the figures cover only the trials that finished'));

  for (const { config, rows } of summaryTables(run)) {
    // Colour goes on after alignment so escape codes never count towards a column's width.
    const lines = alignTable([summaryHeader(run.k), ...rows.map((r) => r.cells)], ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right']);
    out.push('', p.bold(config), `    ${p.dim(lines[0]!)}`, ...rows.map((r, i) => `  ${ok(r.passed)} ${lines[i + 1]!}`));
  }

  if (options.gates.length > 0) {
    const failed = options.gates.filter((g) => !g.passed).length;
    out.push('', p.bold(`gates: ${failed === 0 ? `all ${options.gates.length} held` : `${failed} of ${options.gates.length} failed`}`));
    out.push(...options.gates.map((g) => `  ${ok(g.passed)} ${g.message}`));
  }

  const failing = failingCells(run.cells);
  if (failing.length > 0) {
    out.push('', p.bold('failures'));
    for (const { cell, failed, checks } of failing) {
      const first = failed[0]!;
      const verdict = notPassed(first)[0];
      out.push(`  ${ok(false)} ${cell.scenario} × ${cell.config}: ${failed.length} of ${plural(cell.trials.length, 'trial')} failed (${checks.join(', ')})`);
      if (verdict) out.push(`      trial ${first.trialIndex}: ${verdictLine(verdict)}`);
      out.push(`      replay: ${p.dim(replayCommand(first))}`);
    }
  }
  return `${out.join('\n')}\n`;
}
