import type { Rng } from '../../../core/index.js';

/** Verbs a model swaps for one another: `get_order` called as `fetch_order`. */
const SYNONYMS: readonly (readonly string[])[] = [
  ['get', 'fetch', 'read', 'lookup'],
  ['create', 'add', 'new', 'make'],
  ['update', 'edit', 'modify', 'set'],
  ['delete', 'remove', 'cancel'],
  ['list', 'search', 'find'],
  ['send', 'post', 'submit'],
];

const toCamel = (name: string): string => name.replace(/[_-]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const toSnake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** The near misses of one name: plural or singular, the other case style, a synonym verb, a letter dropped. */
function missesOf(name: string): string[] {
  const out = [name.endsWith('s') ? name.slice(0, -1) : `${name}s`];
  out.push(name.includes('_') ? toCamel(name) : toSnake(name));
  const parts = name.split(/(?=[_-])|(?<=[_-])/);
  const verb = parts[0]?.toLowerCase() ?? '';
  const group = SYNONYMS.find((g) => g.includes(verb));
  if (group) for (const other of group) if (other !== verb) out.push(`${other}${name.slice(verb.length)}`);
  if (name.length > 4) out.push(name.slice(0, -2) + name.slice(-1));
  return out.filter((n) => n !== '' && n !== name);
}

/**
 * A plausible name of a tool the request did not offer, near `name` (one it did): what a model
 * calls when it half remembers the tool list. Never one of `offered`; `undefined` when every
 * near miss is offered too.
 */
export function nearMissName(name: string, offered: readonly string[], rng: Rng): string | undefined {
  const misses = [...new Set(missesOf(name))].filter((n) => !offered.includes(n));
  return misses.length === 0 ? undefined : misses[rng.int(0, misses.length - 1)];
}
