/** JSON as the walk over a record sees it: what it reads field by field, and what it must print first. */

/**
 * Past this depth the walk prints the subtree once (which also ends a cycle, by throwing) and
 * walks what JSON.parse gives back: plain data with no cycle, walked to any depth.
 */
export const MAX_DEPTH = 64;

// Errors stringify as `{}`: spell out what the walk would look at.
export const spellErrors = (_key: string, v: unknown): unknown =>
  v instanceof Error ? { ...v, name: v.name, message: v.message } : v;

/** Whether the walk sees what JSON prints for `v` by reading its fields: a plain object or array, no toJSON, not too deep. */
export function plain(v: object, depth: number): boolean {
  if (depth > MAX_DEPTH || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export const UNPRINTABLE = Symbol('unprintable');
/**
 * The depth the walk goes on at in what `printed` gave back: JSON.parse's output is plain data
 * with no cycle, so it is walked to the end, not printed again every `MAX_DEPTH` levels.
 */
export const PARSED = Number.NEGATIVE_INFINITY;

/**
 * What JSON prints for `v` under `key` (a toJSON's output, an Error spelled out, a class
 * instance's fields) as plain data; `UNPRINTABLE` for a cycle or a BigInt. Printed in a holder
 * under its key, so a toJSON is called with the key, as JSON.stringify calls it.
 */
export function printed(v: object, key: string | number): unknown {
  const holder = { [key]: v };
  let text: string;
  try {
    text = JSON.stringify(holder, spellErrors);
  } catch {
    return UNPRINTABLE;
  }
  return (JSON.parse(text) as Record<string, unknown>)[key];
}

/** Whether Object.prototype has an enumerable key (someone added one), which a for-in over a plain object lists too. */
export function prototypeEnumerates(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}
