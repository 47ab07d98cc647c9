/** Small helpers that keep checker messages to one readable sentence. */

/** `a, b, c`, or `none` for an empty list. */
export const list = (items: readonly (string | number)[]): string => (items.length === 0 ? 'none' : items.join(', '));

/** `1 time`, `2 times`. */
export const times = (n: number, word = 'time'): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `#3` for effect and event sequence numbers. */
export const seqs = (ns: readonly number[]): string => list(ns.map((n) => `#${n}`));

/** A value as short JSON for a message; `missing` when absent. */
export function show(value: unknown, max = 80): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Distinct values in first-seen order. */
export const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];
