import { liveLines } from './liveLines.js';
import type { GateResult } from '../stats/gates.js';
import type { RunResult } from '../runner/run.js';
import { failingCells, notPassed, verdictLine } from './failures.js';
import { formatValue, plural } from './format.js';
import { replayCommand } from '../runner/replay.js';
import {
  formatTokens,
  intervalNote,
  runLine,
  summaryHeader,
  summaryTables,
  timeBasis,
  TOKENS_HEADER,
} from './summaryRows.js';
import { crowdHeader, CROWD_LEGEND, crowdRows } from './crowdRows.js';
import { recoveryHeader, RECOVERY_LEGEND, recoveryRows } from './recoveryRows.js';
import { coverageHeader, coverageRows } from './coverageRows.js';
import { columnWord } from './columnWord.js';

export interface MarkdownReportOptions {
  readonly gates: readonly GateResult[];
  /** Failing trials detailed per cell; the rest are counted (default 5: a PR comment has a size limit). */
  readonly maxTrialsPerCell?: number;
}

/** Text that renders as itself in GitHub markdown, in a table cell or in HTML. */
export const escapeMarkdown = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[\\`*_[\]|]/g, (c) => `\\${c}`)
    .replace(/\r?\n/g, ' ');

/** A fenced code block that no backtick run in `text` can close early. */
function codeBlock(text: string, lang = ''): string[] {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, text, fence];
}

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

const COVERAGE_GATE = /(^|:)unexercised[<>=!]/;

/** Each rule of each cell and how often it fired; folded unless a rule left its cell not exercised. */
function coverageLines(run: RunResult): string[] {
  const rows = coverageRows(run);
  if (rows.length === 0) return [];
  const silent = rows.filter((r) => r.silent).length;
  const summary =
    silent > 0 ? `❌ Fault coverage: ${plural(silent, 'rule')} never fired` : '✅ Fault coverage: every rule fired';
  return [
    silent > 0 ? '<details open>' : '<details>',
    `<summary>${summary}</summary>`,
    '',
    row(coverageHeader(columnWord(run.cells)).map(escapeMarkdown)),
    row(coverageHeader(columnWord(run.cells)).map((_, i) => (i < 4 ? '---' : '---:'))),
    ...rows.map((r) =>
      row(r.cells.map((c, i) => (i === 4 ? `${r.silent ? '❌' : '✅'} ${escapeMarkdown(c)}` : escapeMarkdown(c)))),
    ),
    '',
    '</details>',
    '',
  ];
}

function heading(gates: readonly GateResult[]): string {
  if (gates.length === 0) return '## faultline';
  const failed = gates.filter((g) => !g.passed).length;
  return failed === 0
    ? `## faultline: ✅ all ${plural(gates.length, 'gate')} held`
    : `## faultline: ❌ ${failed} of ${plural(gates.length, 'gate')} failed`;
}

function gateLines(gates: readonly GateResult[]): string[] {
  if (gates.length === 0) return [];
  return [
    '### Gates',
    '',
    ...gates.map((g) => {
      const where = g.failures.map(
        (f) => `${escapeMarkdown(f.scenario)} × ${escapeMarkdown(f.config)} (${formatValue(f.actual)})`,
      );
      // A gate on a bound has more to say than a figure per cell (the estimate, the trials it needs): its message says it.
      // So does the coverage gate: it names each rule that never fired.
      const detail =
        g.confidence !== undefined || (!g.passed && COVERAGE_GATE.test(g.gate))
          ? escapeMarkdown(g.message.slice(g.gate.length + 1))
          : g.passed
            ? `actual ${formatValue(g.actual)}`
            : where.length > 0
              ? `failed in ${where.join(', ')}`
              : escapeMarkdown(g.message);
      return `- ${g.passed ? '✅' : '❌'} \`${g.gate}\`: ${detail}`;
    }),
    '',
  ];
}

function failureLines(run: RunResult, max: number): string[] {
  const failing = failingCells(run.cells);
  if (failing.length === 0) return [];
  const out = ['### Failures', ''];
  for (const { cell, failed, count, checks } of failing) {
    const title = `${cell.scenario} × ${cell.config}: ${count} of ${plural(cell.metrics.trials, 'trial')} failed (${checks.join(', ')})`;
    out.push('<details>', `<summary>❌ ${escapeMarkdown(title)}</summary>`, '');
    for (const trial of failed.slice(0, max)) {
      out.push(`**Trial ${trial.trialIndex}** (seed ${trial.seed}, ended \`${trial.end.kind}\`)`, '');
      out.push(...notPassed(trial).map((c) => `- ${escapeMarkdown(verdictLine(c))}`), '');
      out.push(...codeBlock(replayCommand(trial), 'sh'), '');
    }
    const shown = Math.min(max, failed.length);
    if (count > shown) out.push(`…and ${plural(count - shown, 'more failing trial')} (see faultline.json).`, '');
    out.push('</details>', '');
  }
  return out;
}

/**
 * A summary for a pull-request comment or `GITHUB_STEP_SUMMARY`: a table per configuration,
 * the gates, and a collapsible section per failing cell with its verdicts and replay commands.
 */
export function renderMarkdownReport(run: RunResult, options: MarkdownReportOptions): string {
  // Model usage gets a column only in runs where a model answered over HTTP (R31).
  const withTokens = run.cells.some((c) => c.metrics.tokens.input + c.metrics.tokens.output > 0);
  const header = [...summaryHeader(run.k, timeBasis(run.cells)), ...(withTokens ? [TOKENS_HEADER] : [])];
  const lines = [heading(options.gates), '', `${escapeMarkdown(runLine(run))}.`, ''];
  if (run.interrupted) lines.push('> ⚠️ The run was interrupted: the figures cover only the trials that finished.', '');
  const live = liveLines(run);
  if (live.length > 0) lines.push(...live.map((l) => `- ${escapeMarkdown(l)}`), '');
  const tables = summaryTables(run);
  for (const { config, rows } of tables) {
    lines.push(
      `### ${escapeMarkdown(config)}`,
      '',
      row(header.map(escapeMarkdown)),
      row(header.map((_, i) => (i === 0 ? '---' : '---:'))),
      ...rows.map((r) =>
        row(
          [...r.cells, ...(withTokens ? [formatTokens(r.tokens)] : [])].map((c, i) =>
            i === 0
              ? `${r.unjudged !== undefined ? '➖' : r.passed ? '✅' : '❌'} ${escapeMarkdown(c)}`
              : escapeMarkdown(c),
          ),
        ),
      ),
      '',
    );
  }
  if (tables.length > 0) lines.push(`<sub>${escapeMarkdown(intervalNote())}</sub>`, '');
  const crowd = crowdRows(run);
  if (crowd.length > 0) {
    lines.push(
      '### Crowds',
      '',
      row(crowdHeader(columnWord(run.cells)).map(escapeMarkdown)),
      row(crowdHeader(columnWord(run.cells)).map((_, i) => (i < 2 ? '---' : '---:'))),
      ...crowd.map((r) =>
        row(r.cells.map((c, i) => (i === 0 && r.amplified ? `⚠️ ${escapeMarkdown(c)}` : escapeMarkdown(c)))),
      ),
      '',
      `<sub>${escapeMarkdown(CROWD_LEGEND)}</sub>`,
      '',
    );
  }
  const recovery = recoveryRows(run);
  if (recovery.length > 0) {
    lines.push(
      '### Recovery after the heal',
      '',
      row(recoveryHeader(columnWord(run.cells)).map(escapeMarkdown)),
      row(recoveryHeader(columnWord(run.cells)).map((_, i) => (i < 2 ? '---' : '---:'))),
      ...recovery.map((r) =>
        row(r.cells.map((c, i) => (i === 0 ? `${r.failed ? '❌' : '✅'} ${escapeMarkdown(c)}` : escapeMarkdown(c)))),
      ),
      '',
      `<sub>${escapeMarkdown(RECOVERY_LEGEND)}</sub>`,
      '',
    );
  }
  lines.push(...coverageLines(run), ...gateLines(options.gates), ...failureLines(run, options.maxTrialsPerCell ?? 5));
  return `${lines.join('\n').trimEnd()}\n`;
}
