import type { SweepResult } from '../../sweep/runSweep.js';
import { plural } from '../format.js';
import { escapeMarkdown } from '../markdown.js';
import type { SweepGates } from '../../sweep/sweepGates.js';
import { intervalNote } from '../summaryRows.js';
import { sweepCoverageNote, sweepCoverageTables } from './sweepCoverageRows.js';
import { buildSweepJson } from './sweepJson.js';
import { LABEL_COLUMNS, sweepGateLines, sweepHeadline, sweepReplays, sweepTables } from './sweepTables.js';

const row = (cells: readonly string[]): string => `| ${cells.map(escapeMarkdown).join(' | ')} |`;

/** sweep.md: the tables as GitHub Markdown (a step summary or a PR comment), the replays folded away. */
export function renderSweepMarkdown(result: SweepResult, gates: SweepGates): string {
  const json = buildSweepJson(result, gates);
  const out = ['## faultline sweep: pass^k against fault intensity λ', '', escapeMarkdown(sweepHeadline(result)), ''];
  const lines = sweepGateLines(gates);
  if (lines.length > 0)
    out.push('### Gates', '', ...lines.map((g) => `- ${g.passed ? '✅' : '❌'} ${escapeMarkdown(g.text)}`), '');
  for (const table of sweepTables(result)) {
    const align = table.header.map((h) => (LABEL_COLUMNS.includes(h) ? ':--' : '--:'));
    out.push(
      `### ${escapeMarkdown(table.title)}`,
      '',
      row(table.header),
      `| ${align.join(' | ')} |`,
      ...table.rows.map(row),
      '',
    );
  }
  out.push(escapeMarkdown(intervalNote()), '');
  const silent = json.sweep.notExercised;
  if (silent.length > 0) out.push('### Not exercised', '', ...silent.map((l) => `- ❌ ${escapeMarkdown(l)}`), '');
  for (const table of sweepCoverageTables(json.sweep)) {
    const align = table.header.map((h) => (h.startsWith('λ=') ? '--:' : ':--'));
    out.push(
      `### ${escapeMarkdown(table.title)}`,
      '',
      row(table.header),
      `| ${align.join(' | ')} |`,
      ...table.rows.map((r) => row(r.map((c) => (c.endsWith('not exercised') ? `❌ ${c}` : c)))),
      '',
    );
  }
  if (sweepCoverageTables(json.sweep).length > 0) out.push(escapeMarkdown(sweepCoverageNote(result.mayNotFire)), '');
  const replays = sweepReplays(result);
  if (replays.length > 0) {
    out.push(
      '<details>',
      `<summary>Replay a failing trial (${plural(replays.length, 'point')} with failures)</summary>`,
      '',
    );
    for (const r of replays)
      out.push(
        `- ${escapeMarkdown(`${r.series} λ=${r.lambda} × ${r.config}`)}: ${plural(r.failing, 'failing trial')}: \`${r.replay}\``,
      );
    out.push('', '</details>', '');
  }
  return out.join('\n');
}
