import { hash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth: equal values give equal text. Same output as
 * `JSON.stringify` with a key-sorting replacer (undefined members dropped, `toJSON` honoured),
 * written out by hand because it runs on every write's fingerprint and every snapshot.
 */
export function canonicalJson(value: unknown): string {
  return write(value) ?? 'undefined';
}

function write(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quoteJson(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      const json = (value as { toJSON?: () => unknown }).toJSON;
      if (typeof json === 'function') return write(json.call(value));
      // Appending to one string, not joining arrays of parts: this runs on every snapshot and write fingerprint.
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += `${i === 0 ? '' : ','}${write(value[i]) ?? 'null'}`;
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = sortedKeys(record);
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const v = write(record[key]);
        if (v !== undefined) out += `${out.length === 1 ? '' : ','}${quoteJson(key)}:${v}`;
      }
      return `${out}}`;
    }
    default:
      // undefined, functions and symbols vanish from objects, as in JSON.stringify.
      return undefined;
  }
}

/**
 * A string as JSON text, the same as `JSON.stringify(text)`: most keys and values need no
 * escape, and quoting them by hand saves a call into the runtime for each. Lone surrogates
 * (which JSON.stringify writes as `\udxxx`) take the slow path with every other escape.
 */
export function quoteJson(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * `Object.keys(record).sort()`: by UTF-16 code units, as `<` compares strings. Objects this
 * small (most are) are sorted by insertion, cheaper than `Array.prototype.sort`'s set-up, and
 * their keys often arrive nearly sorted.
 */
export function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  const n = keys.length;
  if (n > 16) return keys.sort();
  for (let i = 1; i < n; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

// One-shot `hash` (Node 20.12+): the same digest as `createHash(…).update(…).digest('hex')` without building a Hash object per call.
export const sha256 = (text: string): string => hash('sha256', text, 'hex');
