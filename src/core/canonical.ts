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
      return JSON.stringify(value);
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
      const keys = Object.keys(record);
      if (keys.length > 1) keys.sort();
      let out = '{';
      for (const key of keys) {
        const v = write(record[key]);
        if (v !== undefined) out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${v}`;
      }
      return `${out}}`;
    }
    default:
      // undefined, functions and symbols vanish from objects, as in JSON.stringify.
      return undefined;
  }
}

// One-shot `hash` (Node 20.12+): the same digest as `createHash(…).update(…).digest('hex')` without building a Hash object per call.
export const sha256 = (text: string): string => hash('sha256', text, 'hex');
