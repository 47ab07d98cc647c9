import { setOwnKey } from '../../core/setOwnKey.js';

/** What `copyJsonTree` answers for a value that is not JSON data; `nonJsonAt` then says where and why. */
export const NOT_JSON: unique symbol = Symbol('faultline.notJson');

/**
 * A deep copy of JSON data (plain objects, arrays, strings, finite numbers, booleans, null) in
 * one walk that also checks the shape, or `NOT_JSON` wherever `nonJsonAt` finds a problem: it
 * replaces `nonJsonAtstructuredClone` for each trial's fresh state and options, which
 * cost a world as much as its services' tools. As `structuredClone` does, a nested object
 * reached twice (not a cycle, which is refused) is copied once and shared in the copy, and
 * `-0` stays `-0`; the copy has plain prototypes and the original's key order.
 */
export function copyJsonTree<T>(value: T): T | typeof NOT_JSON {
  if (typeof value !== 'object' || value === null) return isJsonScalar(value) ? value : NOT_JSON;
  return new TreeCopy(value).copy(value) as T | typeof NOT_JSON;
}

const isJsonScalar = (value: unknown): boolean =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));

/** Marks an object whose copy is still being made: reaching it again is a cycle. */
const IN_PROGRESS = Symbol('in progress');

class TreeCopy {
  /**
   * Every nested object met so far and its copy (the root: in progress until the end). Made on
   * the first nested object, so a flat value such as a built-in service's `{}` pays nothing.
   */
  #seen: Map<object, unknown> | undefined;

  constructor(private readonly root: object) {}

  copy(value: object): unknown {
    return Array.isArray(value) ? this.#array(value) : this.#object(value);
  }

  #child(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return isJsonScalar(value) ? value : NOT_JSON;
    const seen = (this.#seen ??= new Map<object, unknown>([[this.root, IN_PROGRESS]]));
    const known = seen.get(value);
    if (known !== undefined) return known === IN_PROGRESS ? NOT_JSON : known;
    seen.set(value, IN_PROGRESS);
    const out = this.copy(value);
    seen.set(value, out);
    return out;
  }

  #array(value: readonly unknown[]): unknown {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const v = this.#child(value[i]);
      if (v === NOT_JSON) return NOT_JSON;
      out.push(v);
    }
    return out;
  }

  #object(value: object): unknown {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return NOT_JSON;
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const v = this.#child(record[key]);
      if (v === NOT_JSON) return NOT_JSON;
      setOwnKey(out, key, v);
    }
    return out;
  }
}
