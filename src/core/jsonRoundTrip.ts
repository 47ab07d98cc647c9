import { setOwnKey } from './setOwnKey.js';

/** What the walk answers where it cannot be sure to give what JSON would: the caller prints and parses instead. */
const UNSURE: unique symbol = Symbol('unsure');

/** Deeper than any answer a service gives: past it (a cycle, most likely) JSON itself decides, and throws as it does. */
const MAX_DEPTH = 64;

/**
 * `JSON.parse(JSON.stringify(value))`, by a walk over plain data (objects with a plain prototype, arrays, strings,
 * numbers, booleans, null) that prints nothing: an answer crosses the wire this way at every delivery, and the walk
 * costs a fraction of the text's round trip. Whatever JSON treats in a way of its own (a `toJSON`, a class instance, a
 * boxed value, a BigInt, a cycle) is left to JSON. As JSON does: `-0` becomes 0, a non-finite number null, an
 * undefined, function or symbol a null in an array and no key in an object; an object reached twice is copied twice.
 */
export function jsonRoundTrip(value: unknown): unknown {
  const copy = walk(value, 0);
  if (copy !== UNSURE) return copy;
  const text = JSON.stringify(value);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

function walk(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      return v === null ? null : depth >= MAX_DEPTH ? UNSURE : container(v, depth);
    default:
      return UNSURE; // a BigInt: JSON throws
  }
}

function container(v: object, depth: number): unknown {
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return UNSURE;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (Array.isArray(v)) {
    if (proto !== Array.prototype) return UNSURE;
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const item = walk(v[i], depth + 1);
      if (item === UNSURE) return UNSURE;
      out.push(item === undefined ? null : item);
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return UNSURE;
  const out: Record<string, unknown> = {};
  const record = v as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = walk(record[key], depth + 1);
    if (item === UNSURE) return UNSURE;
    if (item !== undefined) setOwnKey(out, key, item);
  }
  return out;
}
