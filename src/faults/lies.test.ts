import { describe, expect, it } from 'vitest';
import { Rng } from '../core/index.js';
import { emptyOf, lieAbout, truncatedOf, wrongValueOf } from './lies.js';

describe('lies', () => {
  it('empty: a list is [], a status not_found, an object keeps its fields with its lists emptied, a record null', () => {
    expect(emptyOf([1, 2])).toEqual([]);
    expect(emptyOf({ state: 'succeeded', value: { id: 1 } })).toEqual({ state: 'not_found' });
    expect(emptyOf({ items: [1], total: 1 })).toEqual({ items: [], total: 1 });
    expect(emptyOf({ orderId: 'ord-1' })).toBeNull();
  });

  it('truncated: lists keep their first items, a text its first characters', () => {
    expect(truncatedOf([1, 2, 3], 1)).toEqual([1]);
    expect(truncatedOf('hello', 2)).toBe('he');
    expect(truncatedOf({ items: [1, 2, 3], next: 'x' }, 2)).toEqual({ items: [1, 2], next: 'x' });
  });

  it('wrong_value: one field replaced by another of its type, the same for the same seed', () => {
    const held = { orderId: 'ord-1', quantity: 2, paid: false, lines: [{ sku: 'a' }] };
    const a = wrongValueOf(held, 'quantity', new Rng(1));
    const b = wrongValueOf(held, 'quantity', new Rng(1));
    expect(a).toEqual(b);
    expect(a.kind).toBe('told');
    const answered = (a as { answered: typeof held }).answered;
    expect(typeof answered.quantity).toBe('number');
    expect(answered.quantity).not.toBe(2);
    expect({ ...answered, quantity: 2 }).toEqual(held);
    expect(wrongValueOf(held, 'paid', new Rng(1))).toEqual({ kind: 'told', answered: { ...held, paid: true } });
    expect(wrongValueOf(held, 'lines.0.sku', new Rng(3)).kind).toBe('told');
    expect(wrongValueOf(held, 'missing.field', new Rng(1))).toEqual({ kind: 'none' });
    // The held value is never changed in place.
    expect(held.quantity).toBe(2);
  });

  it("wrong_value on a status answer's state names another of the four states", () => {
    for (let seed = 1; seed < 20; seed++) {
      const told = lieAbout({ kind: 'wrong_value', path: 'state' }, { state: 'succeeded', value: 1 }, new Rng(seed));
      expect(told.kind).toBe('told');
      expect(['failed', 'pending', 'not_found']).toContain((told as { answered: { state: string } }).answered.state);
    }
  });

  it('tells no lie when the answer has nothing to lie about', () => {
    expect(lieAbout({ kind: 'truncated', keep: 3 }, [1, 2], new Rng(1))).toEqual({ kind: 'none' });
    expect(lieAbout({ kind: 'empty' }, [], new Rng(1))).toEqual({ kind: 'none' });
  });
});
