import type { ContentionComparison } from '../../runner/contention/compareContention.js';
import { painter } from '../paint.js';
import { alignTable, type Align } from '../table.js';
import { CONTENTION_LEGEND, contentionFlags, contentionHeader, contentionRow, contentionTitle } from './contentionRows.js';

const ALIGN: readonly Align[] = ['left', 'left', ...Array<Align>(11).fill('right')];

/**
 * `faultline compare --contention`: per scenario, the configurations side by side (a row
 * each), then the flags (amplification, duplicates, unfinished agents) in red.
 */
export function renderContentionConsole(comparisons: readonly ContentionComparison[], options: { readonly color?: boolean } = {}): string {
  const p = painter(options.color ?? false);
  const out: string[] = [];
  for (const c of comparisons) {
    const flagged = new Set(c.results.filter((r) => r.metrics.flags.some((f) => f.kind === 'amplification')).map((r) => r.config));
    const lines = alignTable([contentionHeader(c), ...c.results.map(contentionRow)], ALIGN);
    out.push(p.bold(`faultline compare --contention  ${contentionTitle(c)}`), '', p.dim(lines[0]!));
    c.results.forEach((r, i) => out.push(flagged.has(r.config) ? p.red(lines[i + 1]!) : lines[i + 1]!));
    const flags = contentionFlags(c);
    if (flags.length > 0) out.push('', ...flags.map((f) => p.red(`  ⚠ ${f}`)));
    out.push('');
  }
  out.push(p.dim(CONTENTION_LEGEND));
  return `${out.join('\n')}\n`;
}
