import { canonicalJson } from '../../core/index.js';

/** A value as sorted, indented JSON lines: the same request always prints the same. */
const linesOf = (value: unknown): string[] => {
  const canonical = canonicalJson(value);
  return (canonical === 'undefined' ? 'undefined' : JSON.stringify(JSON.parse(canonical), null, 2)).split('\n');
};

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

/** A line diff by longest common subsequence: request bodies are small enough for the quadratic table. */
function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  const table: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++]! });
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) ops.push({ kind: '-', line: a[i++]! });
    else ops.push({ kind: '+', line: b[j++]! });
  }
  while (i < a.length) ops.push({ kind: '-', line: a[i++]! });
  while (j < b.length) ops.push({ kind: '+', line: b[j++]! });
  return ops;
}

const CONTEXT = 2;
const MAX_LINES = 60;

/** The changed lines with a little context, `…` where unchanged lines are left out. */
function render(ops: readonly Op[]): string {
  const keep = ops.map((_, i) => ops.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((o) => o.kind !== ' '));
  const out: string[] = ['  --- recorded', '  +++ sent'];
  let skipped = false;
  ops.forEach((op, i) => {
    if (!keep[i]) {
      if (!skipped) out.push('    …');
      skipped = true;
      return;
    }
    skipped = false;
    out.push(`  ${op.kind} ${op.line}`);
  });
  if (out.length > MAX_LINES)
    return [...out.slice(0, MAX_LINES), `    … (${out.length - MAX_LINES} more lines)`].join('\n');
  return out.join('\n');
}

/**
 * Which of `recorded` is closest to `sent` (fewest changed lines; the first on a tie), and a
 * readable line diff between the two: `-` lines as recorded, `+` lines as sent.
 */
export function closestDiff(
  recorded: readonly unknown[],
  sent: unknown,
): { readonly index: number; readonly diff: string } {
  const theirs = linesOf(sent);
  let best = { index: 0, changed: Infinity, ops: [] as Op[] };
  recorded.forEach((body, index) => {
    const ops = diffLines(linesOf(body), theirs);
    const changed = ops.filter((o) => o.kind !== ' ').length;
    if (changed < best.changed) best = { index, changed, ops };
  });
  return { index: best.index, diff: render(best.ops) };
}
