import type { EventOf, HistoryEvent } from '../core/index.js';

const shortJson = (value: unknown, max: number): string => {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** One lie, as a verdict names it: what was asked, when, what was answered and what was true. */
export function describeLie(lie: EventOf<'lie'>): string {
  const read = lie.fault.kind === 'stale' ? 'a stale read' : `a read answered ${lie.fault.kind}`;
  const what = `${lie.tool}${lie.purpose === 'status' ? ' status query' : ''}`;
  const asOf = typeof lie.asOf === 'number' ? `, as of t=${lie.asOf}ms` : '';
  return `${read}: ${what} ${lie.request} at t=${lie.t}ms${asOf} answered ${shortJson(lie.answered, 80)} while the world held ${shortJson(lie.held, 80)}`;
}

/**
 * What a failing verdict adds when the agent was lied to (a fault that looks like success):
 * the lies told before `beforeSeq` (default: all), the last one named. A trial without lies gets
 * nothing, so no other verdict changes.
 */
export function lieNote(history: readonly HistoryEvent[], beforeSeq = Number.POSITIVE_INFINITY): { readonly text: string; readonly lies: readonly EventOf<'lie'>[] } | undefined {
  const lies = history.filter((e): e is EventOf<'lie'> => e.type === 'lie' && e.seq < beforeSeq);
  const last = lies.at(-1);
  if (!last) return undefined;
  return { text: `${lies.length === 1 ? 'the agent was told a lie' : `the agent was told ${lies.length} lies, the last`}: ${describeLie(last)}`, lies };
}
