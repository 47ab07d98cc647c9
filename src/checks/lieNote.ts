import type { EventOf, HistoryEvent } from '../core/index.js';

const shortJson = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** One lie, as a verdict names it: what was asked, when, what was answered and what was true. */
export function describeLie(lie: EventOf<'lie'>): string {
  const read = lie.fault.kind === 'stale' ? 'a stale read' : `a read answered ${lie.fault.kind}`;
  const what = `${lie.tool}${lie.purpose === 'status' ? ' status query' : ''}`;
  const asOf = typeof lie.asOf === 'number' ? `, as of t=${lie.asOf}ms` : '';
  const [answered, held] = aroundDifference(
    JSON.stringify(lie.answered) ?? 'nothing',
    JSON.stringify(lie.held) ?? 'nothing',
    80,
  );
  return `${read}: ${what} ${lie.request} at t=${lie.t}ms${asOf} answered ${answered} while the world held ${held}`;
}

/**
 * Two texts cut to `max` characters each around where they first differ: the first `max` of
 * each were the same when the changed field came later (a wrong_value deep in a long answer).
 */
export function aroundDifference(a: string, b: string, max: number): [string, string] {
  if (a.length <= max && b.length <= max) return [a, b];
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // The first max - 1 characters hold the difference: cut only the end, as before.
  if (i < max - 12) return [shortJson(a, max), shortJson(b, max)];
  const start = Math.max(0, i - 20);
  const cut = (t: string): string => {
    const body = t.slice(start, start + max - 2);
    return `…${body}${start + max - 2 < t.length ? '…' : ''}`;
  };
  return [cut(a), cut(b)];
}

/**
 * What a failing verdict adds when the agent was lied to (a fault that looks like success):
 * the lies told before `beforeSeq` (default: all), the last one named. A trial without lies gets
 * nothing, so no other verdict changes.
 */
export function lieNote(
  history: readonly HistoryEvent[],
  beforeSeq = Number.POSITIVE_INFINITY,
): { readonly text: string; readonly lies: readonly EventOf<'lie'>[] } | undefined {
  const lies = history.filter((e): e is EventOf<'lie'> => e.type === 'lie' && e.seq < beforeSeq);
  const last = lies.at(-1);
  if (!last) return undefined;
  return {
    text: `${lies.length === 1 ? 'the agent was told a lie' : `the agent was told ${lies.length} lies, the last`}: ${describeLie(last)}`,
    lies,
  };
}
