import { setOwnKey } from '../core/setOwnKey.js';

/** A value found by `readPath`, or the reason it was not. */
export type PathLookup = { readonly found: true; readonly value: unknown } | { readonly found: false };

/** Walks `a.b.0.c` through objects and arrays. An empty path is the value itself. */
export function readPath(value: unknown, path: string): PathLookup {
  let here = value;
  if (path === '') return { found: true, value: here };
  // Segment by segment with indexOf, not path.split('.'): every placeholder of every step comes here.
  let from = 0;
  for (;;) {
    const dot = path.indexOf('.', from);
    const key = dot === -1 ? path.slice(from) : path.slice(from, dot);
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, key)) return { found: false };
    here = (here as Record<string, unknown>)[key];
    if (dot === -1) return { found: true, value: here };
    from = dot + 1;
  }
}

/** `$step.path.to.field` names an earlier step's result; `$$` escapes a literal `$`. */
export interface Placeholder {
  readonly step: string;
  readonly path: string;
}

/** The placeholder a string stands for, if it is one. */
export function parsePlaceholder(text: string): Placeholder | undefined {
  if (!text.startsWith('$') || text.startsWith('$$')) return undefined;
  const dot = text.indexOf('.');
  return dot === -1 ? { step: text.slice(1), path: '' } : { step: text.slice(1, dot), path: text.slice(dot + 1) };
}

/** Every placeholder inside a JSON-like value, depth first. */
export function placeholdersIn(value: unknown): Placeholder[] {
  if (typeof value === 'string') {
    const p = parsePlaceholder(value);
    return p ? [p] : [];
  }
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(placeholdersIn);
  return [];
}

/**
 * Replaces every placeholder string with the value it names. A reference that cannot be
 * resolved is a broken plan (or a tool whose answer lacks the field), so it throws.
 */
export function substitutePlaceholders(value: unknown, results: ReadonlyMap<string, unknown>): unknown {
  if (typeof value === 'string') {
    if (value.charCodeAt(0) !== 0x24) return value; // no "$": most strings
    if (value.startsWith('$$')) return value.slice(1);
    const p = parsePlaceholder(value);
    if (!p) return value;
    if (!results.has(p.step)) throw new Error(`placeholder ${value}: no result from a step named "${p.step}"`);
    const found = readPath(results.get(p.step), p.path);
    if (!found.found) throw new Error(`placeholder ${value}: step "${p.step}" returned no field "${p.path}"`);
    return found.value;
  }
  // Plain loops, not map and Object.fromEntries(Object.entries(...)): this copies every step's input.
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out.push(substitutePlaceholders(value[i], results));
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const v = substitutePlaceholders((value as Record<string, unknown>)[key], results);
      setOwnKey(out, key, v);
    }
    return out;
  }
  return value;
}
