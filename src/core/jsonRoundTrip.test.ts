import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { jsonRoundTrip } from './jsonRoundTrip.js';

const viaText = (v: unknown): unknown => {
  const text = JSON.stringify(v);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
};

/** Plain data and what JSON treats its own way, mixed at any depth. */
const odd = fc.oneof(
  fc.constantFrom(-0, NaN, Infinity, -Infinity, undefined, () => 1, Symbol('s'), new Date(0), new String('boxed')),
  fc.constant({ toJSON: () => ({ shown: true }) }),
  fc.constant(Object.assign(Object.create(null) as object, { bare: 1 })),
  fc.constant(JSON.parse('{"__proto__": {"polluted": 1}}') as unknown),
);
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    odd,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('jsonRoundTrip', () => {
  test.prop([values], { numRuns: 500 })('gives what a round trip through JSON text gives', (v) => {
    const copy = jsonRoundTrip(v);
    expect(copy).toStrictEqual(viaText(v));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(v));
    expect(Object.is(jsonRoundTrip(-0), 0)).toBe(true);
  });

  it('keeps an own "__proto__" key a key, copies a shared object twice, and throws on a cycle as JSON does', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}}') as object;
    const copy = jsonRoundTrip(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    const shared = { n: 1 };
    const twice = jsonRoundTrip({ a: shared, b: shared }) as { a: object; b: object };
    expect(twice.a).not.toBe(twice.b);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => jsonRoundTrip(cycle)).toThrow(/circular/);
    expect(() => jsonRoundTrip({ n: 1n })).toThrow(TypeError);
  });
});
