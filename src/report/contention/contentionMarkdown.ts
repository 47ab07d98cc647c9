import type { ContentionComparison } from '../../runner/contention/compareContention.js';
import { escapeMarkdown } from '../markdown.js';
import { CONTENTION_LEGEND, contentionFlags, contentionHeader, contentionRow, contentionTitle } from './contentionRows.js';

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

/** The contention comparison for `summary.md` (and `GITHUB_STEP_SUMMARY`): a table and the flags per scenario. */
export function renderContentionMarkdown(comparisons: readonly ContentionComparison[], options: { readonly interrupted?: boolean } = {}): string {
  const lines = ['## faultline: retry configurations under contention', ''];
  if (options.interrupted === true) lines.push('> ⚠️ The run was interrupted: the figures cover only the configurations that finished.', '');
  for (const c of comparisons) {
    const header = contentionHeader(c);
    lines.push(`### ${escapeMarkdown(c.scenario.title || c.scenario.name)}`, '', `${escapeMarkdown(contentionTitle(c))}.`, '');
    lines.push(row(header.map(escapeMarkdown)), row(header.map((_, i) => (i < 2 ? '---' : '---:'))));
    for (const r of c.results) {
      const cells = contentionRow(r).map(escapeMarkdown);
      if (r.metrics.flags.some((f) => f.kind === 'amplification')) cells[0] = `⚠️ ${cells[0]}`;
      lines.push(row(cells));
    }
    const flags = contentionFlags(c);
    if (flags.length > 0) lines.push('', ...flags.map((f) => `- ⚠️ ${escapeMarkdown(f)}`));
    lines.push('');
  }
  lines.push(`<sub>${escapeMarkdown(CONTENTION_LEGEND)}</sub>`);
  return `${lines.join('\n')}\n`;
}
