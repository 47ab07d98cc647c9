import { canonicalJson, sortedKeys } from './canonical.js';
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
 * `{ text: canonicalJson(value), copy: JSON.parse(text) }` in one walk and one print: a world's
 * final snapshot is both hashed and kept. Same rules as `canonicalJson` (`toJSON` honoured,
 * undefined, functions and symbols dropped from objects and null in arrays, non-finite numbers
 * null), and the copy is what the parse would give: -0 is 0, keys in sorted order, an own
 * "__proto__" key a key.
 *
 * The copy is plain data whose keys were added in sorted order, so `JSON.stringify` (native, and
 * much faster than a walk that appends text) prints it as `canonicalJson` would: unless a key is
 * an array index, which an object lists first whatever the order it was added in. A copy with
 * a key that may be one (it starts with a digit) is written by `canonicalJson` instead, which
 * sorts every key; its toJSONs were already followed, so none is called twice.
 */
export function canonicalCopy(value: unknown): CanonicalCopy {
  const copier = new PlainCopier();
  const copy = copier.copy(value);
  if (copy === DROPPED) return { text: 'undefined', copy: undefined };
  return { text: copier.digitKeys ? canonicalJson(copy) : JSON.stringify(copy), copy };
}

class PlainCopier {
  /** Whether some key starts with a digit (so may be an array index). */
  digitKeys = false;

  /** `value`'s copy, or `DROPPED`. */
  copy(value: unknown): unknown {
    return this.#resolvedCopy(resolved(value));
  }

  /** `copy` of a value whose `toJSON` was already followed: looking it up again cost a second megamorphic load per object. */
  #resolvedCopy(value: unknown): unknown {
    if (value === null) return null;
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        // JSON has one zero (-0 is written "0" and parses back as 0), and no NaN or Infinity.
        if (!Number.isFinite(value)) return null;
        return value === 0 ? 0 : value;
      case 'object':
        return Array.isArray(value) ? this.#array(value) : this.#object(value as Record<string, unknown>);
      default:
        return DROPPED;
    }
  }

  #array(value: readonly unknown[]): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const v = this.copy(value[i]);
      out.push(v === DROPPED ? null : v);
    }
    return out;
  }

  #object(record: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = sortedKeys(record);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const first = key.charCodeAt(0);
      if (first >= 0x30 && first <= 0x39) this.digitKeys = true;
      const v = resolved(record[key]);
      if (dropped(v)) continue;
      setOwnKey(out, key, this.#resolvedCopy(v));
    }
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

const dropped = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint';
