/** A value found by `readPath`, or the reason it was not. */
export type PathLookup = { readonly found: true; readonly value: unknown } | { readonly found: false };

/** Walks `a.b.0.c` through objects and arrays. An empty path is the value itself. */
export function readPath(value: unknown, path: string): PathLookup {
  let here = value;
  for (const key of path === '' ? [] : path.split('.')) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, key)) return { found: false };
    here = (here as Record<string, unknown>)[key];
  }
  return { found: true, value: here };
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
    if (value.startsWith('$$')) return value.slice(1);
    const p = parsePlaceholder(value);
    if (!p) return value;
    if (!results.has(p.step)) throw new Error(`placeholder ${value}: no result from a step named "${p.step}"`);
    const found = readPath(results.get(p.step), p.path);
    if (!found.found) throw new Error(`placeholder ${value}: step "${p.step}" returned no field "${p.path}"`);
    return found.value;
  }
  if (Array.isArray(value)) return value.map((v) => substitutePlaceholders(v, results));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitutePlaceholders(v, results)]));
  }
  return value;
}
