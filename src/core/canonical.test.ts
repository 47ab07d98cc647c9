import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, quoteJson, sortedKeys } from './canonical.js';
import { canonicalCopy } from './canonicalCopy.js';

/** canonicalJson as it was before its quoting and sorting were written by hand: the reference. */
function referenceJson(value: unknown): string {
  return write(value) ?? 'undefined';
  function write(v: unknown): string | undefined {
    if (v === null) return 'null';
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'number':
        return Number.isFinite(v) ? String(v) : 'null';
      case 'boolean':
        return v ? 'true' : 'false';
      case 'object': {
        const json = (v as { toJSON?: () => unknown }).toJSON;
        if (typeof json === 'function') return write(json.call(v));
        if (Array.isArray(v)) {
          let out = '[';
          for (let i = 0; i < v.length; i++) out += `${i === 0 ? '' : ','}${write(v[i]) ?? 'null'}`;
          return `${out}]`;
        }
        const record = v as Record<string, unknown>;
        const keys = Object.keys(record);
        if (keys.length > 1) keys.sort();
        let out = '{';
        for (const key of keys) {
          const w = write(record[key]);
          if (w !== undefined) out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${w}`;
        }
        return `${out}}`;
      }
      default:
        return undefined;
    }
  }
}

/** Any UTF-16 text: escapes, quotes, backslashes, astral characters and lone surrogates. */
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 8 }).map((units) => String.fromCharCode(...units)),
  fc.constantFrom('', '"', '\\', '\n', '\u2028', '\ud800', '\udfff', '\ud83d\ude00', 'a\u0000b', '</script>'),
);
const key = fc.oneof(
  text,
  fc.constantFrom('__proto__', 'constructor', 'toString', '0', '1', '10', '9', '-1', '01', '4294967295', 'a', 'B', 'é'),
);
/** JSON values and what JSON.stringify drops or rewrites: undefined, functions, NaN, Infinity, toJSON. */
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -0,
      1e21,
      1e-7,
      5e-324,
      Number.MAX_VALUE,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      undefined,
      () => 1,
      Symbol('s'),
      1n,
    ),
    fc.double(),
    fc.integer(),
    text,
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    fc.dictionary(key, tie('value'), { minKeys: 15, maxKeys: 24 }),
    tie('value').map((inner) => ({ toJSON: () => inner })),
  ),
})).value;

/** Equal as JSON.parse gives data: -0 apart from 0, same key order, plain prototypes. */
function sameData(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null) return Object.is(a, b);
  if (typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameData(v, b[i]));
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

describe('canonicalJson', () => {
  it('writes what it wrote before its quoting and key sorting were done by hand, byte for byte', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(referenceJson(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('quotes a string as JSON.stringify does', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(quoteJson(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts keys as Array.prototype.sort does, short objects and long', () => {
    fc.assert(
      fc.property(fc.dictionary(key, fc.constant(1), { maxKeys: 40 }), (record) => {
        expect(sortedKeys(record)).toEqual(Object.keys(record).sort());
      }),
      { numRuns: 1000 },
    );
  });
});

describe('canonicalCopy', () => {
  it('gives canonicalJson text and the data JSON.parse makes of it, key order and -0 included', () => {
    fc.assert(
      fc.property(value, (v) => {
        const { text: t, copy } = canonicalCopy(v);
        const json = referenceJson(v);
        expect(t).toBe(json);
        if (json !== 'undefined') expect(sameData(copy, JSON.parse(json))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes keys that are array indices in sorted text order, though the copy lists them first', () => {
    const value = { b: 1, 10: { z: 1, 9: 2 }, 9: [{ 0: 'x', a: 'y' }] };
    const { text: t, copy } = canonicalCopy(value);
    expect(t).toBe('{"10":{"9":2,"z":1},"9":[{"0":"x","a":"y"}],"b":1}');
    expect(t).toBe(canonicalJson(value));
    expect(Object.keys(copy as object)).toEqual(['9', '10', 'b']);
  });

  it('shares nothing with the value it copies, and makes an own "__proto__" key a key', () => {
    const shared = { n: 1 };
    const value = { a: shared, b: [shared], ['__proto__']: { polluted: true } };
    Object.defineProperty(value, '__proto__', { value: { polluted: true }, enumerable: true });
    const { copy } = canonicalCopy(value) as { copy: { a: object; b: object[] } };
    expect(copy.a).not.toBe(shared);
    expect(copy.b[0]).not.toBe(copy.a);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a', 'b']);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
