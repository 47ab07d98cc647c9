import { describe, expect, it } from 'vitest';
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
      substitutePlaceholders({ order: '$order.id', qty: ['$order.lines.0.qty'], price: '$$10', note: 'hi', n: 1 }, results),
    ).toEqual({ order: 'ord-7', qty: [2], price: '$10', note: 'hi', n: 1 });
  });

  it('throws on a step with no result or a field the result lacks', () => {
    const results = new Map<string, unknown>([['order', { id: 'ord-7' }]]);
    expect(() => substitutePlaceholders({ x: '$pay.id' }, results)).toThrow('no result from a step named "pay"');
    expect(() => substitutePlaceholders({ x: '$order.total' }, results)).toThrow('step "order" returned no field "total"');
  });
});
