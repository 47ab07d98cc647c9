import type { SweepResult } from '../../sweep/runSweep.js';
import { plural } from '../format.js';
import { painter } from '../paint.js';
import { alignTable } from '../table.js';
import type { SweepGates } from '../../sweep/sweepGates.js';
import { mark } from '../paint.js';
import { intervalNote } from '../summaryRows.js';
import { sweepCoverageNote, sweepCoverageTables } from './sweepCoverageRows.js';
import { buildSweepJson } from './sweepJson.js';
import { LABEL_COLUMNS, sweepGateLines, sweepHeadline, sweepReplays, sweepTables } from './sweepTables.js';

export interface SweepConsoleOptions {
  readonly color: boolean;
  readonly gates: SweepGates;
}

// A sweep of the library may leave many cells silent: the files list them all, the terminal a screenful.
const MAX_SILENT_LINES = 20;

/** The sweep on a terminal: the tables, then one replay command per failing point. */
export function renderSweepConsole(result: SweepResult, options: SweepConsoleOptions): string {
  const p = painter(options.color);
  const json = buildSweepJson(result, options.gates);
  const out = [`${p.bold('faultline sweep')}  ${sweepHeadline(result)}`, ''];
  for (const table of sweepTables(result)) {
    const lines = alignTable(
      [table.header, ...table.rows],
      table.header.map((h) => (LABEL_COLUMNS.includes(h) ? 'left' : 'right')),
    );
    out.push(p.bold(table.title), ...lines.map((l, i) => `  ${i === 0 ? p.dim(l) : l}`), '');
  }
  out.push(p.dim(intervalNote()), '');
  for (const table of sweepCoverageTables(json.sweep)) {
    const lines = alignTable(
      [table.header, ...table.rows],
      table.header.map((h) => (h.startsWith('λ=') ? 'right' : 'left')),
    );
    out.push(
      p.bold(table.title),
      ...lines.map((l, i) => `  ${i === 0 ? p.dim(l) : l.includes('not exercised') ? p.red(l) : l}`),
      '',
    );
  }
  const silent = json.sweep.notExercised;
  if (silent.length > 0 || sweepCoverageTables(json.sweep).length > 0)
    out.push(p.dim(sweepCoverageNote(result.mayNotFire)), '');
  if (silent.length > 0) {
    out.push(p.bold(`not exercised: ${plural(silent.length, 'rule')} fired in no trial of a cell where they had to`));
    for (const line of silent.slice(0, MAX_SILENT_LINES)) out.push(`  ${mark(p, false)} ${line}`);
    if (silent.length > MAX_SILENT_LINES)
      out.push(`  … and ${silent.length - MAX_SILENT_LINES} more (sweep.json and sweep.md list them all)`);
    out.push('');
  }
  const replays = sweepReplays(result);
  if (replays.length > 0) {
    out.push(p.bold('replay a failing trial'));
    for (const r of replays)
      out.push(
        `  ${r.series} λ=${r.lambda} × ${r.config}: ${plural(r.failing, 'failing trial')}`,
        `    ${p.dim(r.replay)}`,
      );
    out.push('');
  }
  const gates = sweepGateLines(options.gates);
  if (gates.length > 0) {
    const failed = gates.filter((g) => !g.passed).length;
    out.push(
      p.bold(
        failed === 0
          ? `gates: all ${plural(gates.length, 'gate')} held`
          : `gates: ${failed} of ${plural(gates.length, 'gate')} failed`,
      ),
    );
    for (const g of gates) out.push(`  ${mark(p, g.passed)} ${g.text}`);
    out.push('');
  }
  return out.join('\n');
}
