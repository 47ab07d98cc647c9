import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyJsonTree, NOT_JSON } from './copyJsonTree.js';
import { nonJsonAt } from './jsonData.js';

/** JSON data with the awkward cases: -0, big and tiny numbers, lone surrogates, "__proto__" keys. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -0, 1e21, 5e-324, -1.5),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: 'binary' }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '0', '10', '9')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** Values that are not JSON data, somewhere inside. */
const notJson = fc.constantFrom<unknown>(
  undefined,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  () => 1,
  Symbol('s'),
  1n,
  new Date(0),
  new Map(),
  [1, undefined],
  { a: { b: [new Set()] } },
);

/**
 * Equal as plain data, -0 apart from 0, keys in the same order, and (where `fresh`) no object
 * of `a` inside `b`. By hand: vitest's toStrictEqual reads an own "constructor" key as the type.
 */
function sameTree(a: unknown, b: unknown, fresh: boolean): boolean {
  if (typeof a !== 'object' || a === null) return Object.is(a, b);
  if (typeof b !== 'object' || b === null || (fresh && a === b)) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameTree(v, b[i], fresh));
  if (Array.isArray(b) || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k, i) => k === kb[i] && sameTree((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], fresh),
    )
  );
}

describe('copyJsonTree', () => {
  it('copies JSON data as structuredClone does: equal, same key order, nothing shared with the original', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const copy = copyJsonTree(value);
        expect(copy).not.toBe(NOT_JSON);
        expect(sameTree(value, copy, true)).toBe(true);
        expect(sameTree(structuredClone(value), copy, true)).toBe(true);
      }),
    );
  });

  it('refuses exactly what nonJsonAt refuses, however deep', () => {
    fc.assert(
      fc.property(jsonValue, notJson, fc.constantFrom('array', 'object'), (value, bad, where) => {
        const wrapped = where === 'array' ? [value, bad] : { ok: value, bad };
        expect(nonJsonAt(wrapped)).toBeDefined();
        expect(copyJsonTree(wrapped)).toBe(NOT_JSON);
      }),
    );
  });

  it('keeps an own "__proto__" key a key, and -0 as -0', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"n":-0}') as Record<string, unknown>;
    value['n'] = -0;
    const copy = copyJsonTree(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'n']);
    expect(Object.is(copy['n'], -0)).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('copies an object reached twice once, as structuredClone does, and refuses a cycle', () => {
    const shared = { n: 1 };
    const copy = copyJsonTree({ a: shared, b: [shared] }) as { a: object; b: object[] };
    expect(copy.a).not.toBe(shared);
    expect(copy.b[0]).toBe(copy.a);
    const cyclic: Record<string, unknown> = { x: { y: [] } };
    (cyclic['x'] as { y: unknown[] }).y.push(cyclic);
    expect(copyJsonTree(cyclic)).toBe(NOT_JSON);
    expect(nonJsonAt(cyclic)).toMatch(/circular/);
    const inner: unknown[] = [];
    inner.push({ back: inner });
    expect(copyJsonTree({ inner })).toBe(NOT_JSON);
  });

  it('gives a plain object for one without a prototype, and refuses class instances', () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    const copy = copyJsonTree(bare);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual({ a: 1 });
    class Point {
      x = 1;
    }
    expect(copyJsonTree({ p: new Point() })).toBe(NOT_JSON);
  });
});
