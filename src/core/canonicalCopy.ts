import { quoteJson, sortedKeys } from './canonical.js';
import { setOwnKey } from './setOwnKey.js';

/** `canonicalJson(value)` and `JSON.parse` of it, made together. */
export interface CanonicalCopy {
  readonly text: string;
  /** Plain data, detached from `value`: what `JSON.parse(text)` gives, key order included. */
  readonly copy: unknown;
}

/** A member `JSON.stringify` leaves out of an object (and writes as null in an array). */
const DROPPED = Symbol('dropped');

/**
 * `{ text: canonicalJson(value), copy: JSON.parse(text) }` in one walk: a world's final
 * snapshot is both hashed and kept, and parsing back the text it had just written cost as
 * much as writing it. Same rules as `canonicalJson` (`toJSON` honoured, undefined, functions
 * and symbols dropped from objects and null in arrays, non-finite numbers null), and the copy
 * is what the parse would give: -0 is 0, keys in sorted order, an own "__proto__" key a key.
 */
export function canonicalCopy(value: unknown): CanonicalCopy {
  const writer = new CanonicalWriter();
  const copy = writer.copy(value);
  return copy === DROPPED ? { text: 'undefined', copy: undefined } : { text: writer.text, copy };
}

class CanonicalWriter {
  text = '';

  /** Appends `value`'s text and returns its copy, or `DROPPED` having appended nothing. */
  copy(value: unknown): unknown {
    return this.#resolvedCopy(resolved(value));
  }

  /** `copy` of a value whose `toJSON` was already followed: looking it up again cost a second megamorphic load per object. */
  #resolvedCopy(value: unknown): unknown {
    if (value === null) {
      this.text += 'null';
      return null;
    }
    switch (typeof value) {
      case 'string':
        this.text += quoteJson(value);
        return value;
      case 'number':
        if (!Number.isFinite(value)) {
          this.text += 'null';
          return null;
        }
        this.text += String(value);
        // JSON has one zero: -0 is written "0" and parses back as 0.
        return value === 0 ? 0 : value;
      case 'boolean':
        this.text += value ? 'true' : 'false';
        return value;
      case 'object':
        return Array.isArray(value) ? this.#array(value) : this.#object(value as Record<string, unknown>);
      default:
        return DROPPED;
    }
  }

  #array(value: readonly unknown[]): unknown[] {
    const out: unknown[] = [];
    this.text += '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) this.text += ',';
      const v = this.copy(value[i]);
      if (v === DROPPED) {
        this.text += 'null';
        out.push(null);
      } else out.push(v);
    }
    this.text += ']';
    return out;
  }

  #object(record: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = sortedKeys(record);
    this.text += '{';
    let first = true;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      // The key is written before its value, so a value that will be dropped is known first.
      const v = resolved(record[key]);
      if (dropped(v)) continue;
      this.text += `${first ? '' : ','}${quoteJson(key)}:`;
      first = false;
      const c = this.#resolvedCopy(v);
      setOwnKey(out, key, c);
    }
    this.text += '}';
    return out;
  }
}

/** `value` after its `toJSON` (and that result's, and so on), as `canonicalJson` writes it. */
function resolved(value: unknown): unknown {
  let v = value;
  while (typeof v === 'object' && v !== null) {
    const json = (v as { toJSON?: () => unknown }).toJSON;
    if (typeof json !== 'function') break;
    v = json.call(v);
  }
  return v;
}

const dropped = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint';
