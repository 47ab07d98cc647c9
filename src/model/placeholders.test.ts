import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePlaceholder, placeholdersIn, readPath, substitutePlaceholders } from './placeholders.js';

describe('readPath', () => {
  it('walks objects and arrays, and tells a missing field from an undefined one', () => {
    const v = { a: { b: [{ c: 'x' }] }, u: undefined };
    expect(readPath(v, 'a.b.0.c')).toEqual({ found: true, value: 'x' });
    expect(readPath(v, '')).toEqual({ found: true, value: v });
    expect(readPath(v, 'u')).toEqual({ found: true, value: undefined });
    expect(readPath(v, 'a.z')).toEqual({ found: false });
    expect(readPath('text', 'length')).toEqual({ found: false });
  });
});

describe('placeholders', () => {
  it('parses $step.path, a bare $step, and leaves $$ and plain strings alone', () => {
    expect(parsePlaceholder('$order.id')).toEqual({ step: 'order', path: 'id' });
    expect(parsePlaceholder('$order')).toEqual({ step: 'order', path: '' });
    expect(parsePlaceholder('$$5')).toBeUndefined();
    expect(parsePlaceholder('ref-1')).toBeUndefined();
    expect(placeholdersIn({ a: ['$x.y', 'z', { b: '$w' }], n: 3 })).toEqual([
      { step: 'x', path: 'y' },
      { step: 'w', path: '' },
    ]);
  });

  it('replaces placeholders deep inside the input with the values they name, keeping their types', () => {
    const results = new Map<string, unknown>([['order', { id: 'ord-7', lines: [{ qty: 2 }] }]]);
    expect(
      substitutePlaceholders(
        { order: '$order.id', qty: ['$order.lines.0.qty'], price: '$$10', note: 'hi', n: 1 },
        results,
      ),
    ).toEqual({ order: 'ord-7', qty: [2], price: '$10', note: 'hi', n: 1 });
  });

  it('throws on a step with no result or a field the result lacks', () => {
    const results = new Map<string, unknown>([['order', { id: 'ord-7' }]]);
    expect(() => substitutePlaceholders({ x: '$pay.id' }, results)).toThrow('no result from a step named "pay"');
    expect(() => substitutePlaceholders({ x: '$order.total' }, results)).toThrow(
      'step "order" returned no field "total"',
    );
  });
});

/** The two functions as they were before their loops were written by hand: the reference. */
function referenceReadPath(value: unknown, path: string): { found: boolean; value?: unknown } {
  let here = value;
  for (const key of path === '' ? [] : path.split('.')) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, key)) return { found: false };
    here = (here as Record<string, unknown>)[key];
  }
  return { found: true, value: here };
}
function referenceSubstitute(value: unknown, results: ReadonlyMap<string, unknown>): unknown {
  if (typeof value === 'string') {
    if (value.startsWith('$$')) return value.slice(1);
    const p = parsePlaceholder(value);
    if (!p) return value;
    if (!results.has(p.step)) throw new Error(`placeholder ${value}: no result from a step named "${p.step}"`);
    const found = referenceReadPath(results.get(p.step), p.path);
    if (!found.found) throw new Error(`placeholder ${value}: step "${p.step}" returned no field "${p.path}"`);
    return found.value;
  }
  if (Array.isArray(value)) return value.map((v) => referenceSubstitute(v, results));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, referenceSubstitute(v, results)]));
  return value;
}

describe('placeholders against their reference', () => {
  const segment = fc.constantFrom('a', 'b', '0', '1', '', '__proto__', 'x.y');
  const path = fc.array(segment, { maxLength: 3 }).map((s) => s.join('.'));
  const text = fc.oneof(
    fc.string(),
    fc.constantFrom('$', '$$', '$$a', '$a', '$a.b', '$b.0', '$a.__proto__', '$a..b', '$missing.x'),
    path.map((p) => `$a${p === '' ? '' : `.${p}`}`),
  );
  const value = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.constantFrom(null, 0, -0, true),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'a', 'b', '0')), tie('value'), { maxKeys: 3 }),
    ),
  })).value;
  const outcome = (f: () => unknown): { ok: true; value: unknown } | { ok: false; message: string } => {
    try {
      return { ok: true, value: f() };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  };

  it('reads the same paths', () => {
    fc.assert(
      fc.property(value, path, (v, p) => {
        expect(readPath(v, p)).toStrictEqual(referenceReadPath(v, p));
      }),
      { numRuns: 1000 },
    );
  });

  it('substitutes the same values, throws the same errors, and keys "__proto__" as keys', () => {
    fc.assert(
      fc.property(value, value, (input, result) => {
        const results = new Map<string, unknown>([
          ['a', result],
          ['b', [result]],
        ]);
        const after = outcome(() => substitutePlaceholders(input, results));
        const before = outcome(() => referenceSubstitute(input, results));
        expect(after).toStrictEqual(before);
        if (after.ok && before.ok) expect(JSON.stringify(after.value)).toBe(JSON.stringify(before.value));
      }),
      { numRuns: 1000 },
    );
  });
});
