/**
 * How deep a file's data may nest. Every reader after the parser (the duplicate-key scan,
 * validation, canonical JSON, the `__proto__` check) walks the value recursively, so a file
 * nested deeper than the stack would crash faultline instead of being refused. No scenario,
 * configuration or recorded model request comes near this depth.
 */
export const MAX_NESTING = 256;

/**
 * The first offset of JSON `text` where arrays and objects are nested more than `max` deep, or
 * undefined. A loop over the characters (skipping strings), not a recursive descent, so any
 * depth is safe to measure.
 */
export function jsonTooDeepAt(text: string, max: number = MAX_NESTING): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escaped characters.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

/** Whether a parsed value nests arrays and objects more than `max` deep; iterative, and safe on cycles (YAML aliases). */
export function valueTooDeep(value: unknown, max: number = MAX_NESTING): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    if (depth + 1 > max) return true;
    seen.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>))
      stack.push({ v: child, depth: depth + 1 });
  }
  return false;
}

/** What a refusal says about it. */
export const tooDeepText = (max: number = MAX_NESTING): string =>
  `the data is nested more than ${max} levels deep (arrays and objects inside each other); expected at most ${max}`;
