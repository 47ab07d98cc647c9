import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Rng } from '../core/index.js';
import { declaredOutput, emptyValueOf, membersAt, rangeAt } from './declaredOutput.js';
import { lieAbout } from './lies.js';

const Order = z.object({
  status: z.enum(['open', 'paid', 'shipped']),
  lines: z.array(z.object({ sku: z.literal(['a', 'b', 'c']), gift: z.boolean(), qty: z.number().int().min(1).max(5) })),
  priority: z.enum(['low', 'high']).nullable().optional(),
  channel: z.union([z.literal('web'), z.literal('shop'), z.literal('phone')]).default('web'),
  note: z.string().nullable(),
  tags: z.array(z.string()),
  coupon: z.string().optional(),
  total: z.number().int().nonnegative(),
});
type Order = z.infer<typeof Order>;

const HELD: Order = {
  status: 'paid',
  lines: [{ sku: 'b', gift: false, qty: 2 }],
  priority: 'high',
  channel: 'shop',
  note: 'leave at the door',
  tags: ['vip'],
  coupon: 'SAVE5',
  total: 1500,
};

const at = (path: string): readonly unknown[] | undefined => membersAt(Order, HELD, path.split('.'));

describe('declaredOutput: what a zod output schema says of an answer', () => {
  it('names the members of an enum, literals, a union of literals and a boolean, at nested paths and through wrappers', () => {
    expect(at('status')).toEqual(['open', 'paid', 'shipped']);
    expect(at('lines.0.sku')).toEqual(['a', 'b', 'c']);
    expect(at('lines.0.gift')).toEqual([true, false]);
    // nullable and optional: null and absence are not members.
    expect(at('priority')).toEqual(['low', 'high']);
    // a default, around a union of literals
    expect(at('channel')).toEqual(['web', 'shop', 'phone']);
    expect(at('note')).toBeUndefined();
    expect(at('total')).toBeUndefined();
    expect(at('lines.x.sku')).toBeUndefined();
    expect(at('missing')).toBeUndefined();
    expect(membersAt(z.string(), 'x', ['a'])).toBeUndefined();
    expect(membersAt('not a schema', HELD, ['status'])).toBeUndefined();
  });

  it('follows a lazy schema, a tuple, a record and the union option that accepts the answer', () => {
    const Shape = z.union([
      z.object({ kind: z.literal('circle'), unit: z.enum(['cm', 'in']) }),
      z.object({ kind: z.literal('square'), fill: z.enum(['red', 'blue']) }),
    ]);
    const schema = z.object({
      shape: Shape,
      pair: z.tuple([z.string(), z.enum(['x', 'y'])]),
      byId: z.record(z.string(), z.enum(['on', 'off'])),
      later: z.lazy(() => z.enum(['soon', 'never'])),
    });
    const held = { shape: { kind: 'square', fill: 'red' }, pair: ['p', 'x'], byId: { a: 'on' }, later: 'soon' };
    expect(membersAt(schema, held, ['shape', 'fill'])).toEqual(['red', 'blue']);
    expect(membersAt(schema, held, ['shape', 'unit'])).toBeUndefined();
    expect(membersAt(schema, held, ['pair', '1'])).toEqual(['x', 'y']);
    expect(membersAt(schema, held, ['byId', 'a'])).toEqual(['on', 'off']);
    expect(membersAt(schema, held, ['later'])).toEqual(['soon', 'never']);
  });

  it("reads a number's bounds", () => {
    expect(rangeAt(Order, HELD, ['lines', '0', 'qty'])).toEqual({ min: 1, max: 5, int: true });
    expect(rangeAt(Order, HELD, ['total'])).toMatchObject({ min: 0, int: true });
    expect(rangeAt(z.object({ ratio: z.number() }), { ratio: 0.5 }, ['ratio'])).toEqual({
      min: -Infinity,
      max: Infinity,
      int: false,
    });
    expect(rangeAt(Order, HELD, ['status'])).toBeUndefined();
  });

  it('the empty value: a list [], a nullable null, an object with its lists emptied, nullable fields null and optional ones gone', () => {
    expect(emptyValueOf(z.array(z.string()), ['a'])).toEqual([]);
    expect(emptyValueOf(z.object({ id: z.string() }).nullable(), { id: 'x' })).toBeNull();
    expect(emptyValueOf(z.union([z.object({ id: z.string() }), z.null()]), { id: 'x' })).toBeNull();
    expect(emptyValueOf(Order, HELD)).toEqual({
      status: 'paid',
      lines: [],
      channel: 'shop',
      note: null,
      tags: [],
      total: 1500,
    });
    // Nothing in the schema is emptier than a required scalar: the answer stays as held.
    expect(emptyValueOf(z.object({ id: z.string() }), { id: 'x' })).toEqual({ id: 'x' });
  });

  it("gives no schema for a transform's output, and one per schema", () => {
    expect(declaredOutput(z.string().transform((s) => s.length))).toBeUndefined();
    expect(declaredOutput(undefined)).toBeUndefined();
    expect(declaredOutput(Order)).toBe(declaredOutput(Order));
  });
});

/** A path to each field of an Order, nested ones through the first line. */
const FIELDS = [
  'status',
  'lines.0.sku',
  'lines.0.gift',
  'lines.0.qty',
  'priority',
  'channel',
  'note',
  'tags',
  'coupon',
  'total',
];

describe('lies drawn from a declared output schema', () => {
  const schema = declaredOutput(Order)!;

  it('wrong_value on an enum names another member; on a bounded number, another number inside the bounds', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const status = lieAbout({ kind: 'wrong_value', path: 'status' }, HELD, new Rng(seed), schema);
      expect(status.kind).toBe('told');
      expect(['open', 'shipped']).toContain((status as { answered: Order }).answered.status);
      const qty = lieAbout({ kind: 'wrong_value', path: 'lines.0.qty' }, HELD, new Rng(seed), schema);
      const answered = (qty as { answered: Order }).answered.lines[0]!.qty;
      expect(answered).not.toBe(2);
      expect(Order.safeParse((qty as { answered: Order }).answered).success).toBe(true);
    }
  });

  it("empty answers the schema's empty value; with nothing emptier, no lie", () => {
    expect(lieAbout({ kind: 'empty' }, HELD, new Rng(1), schema)).toEqual({
      kind: 'told',
      answered: emptyValueOf(Order, HELD),
    });
    const record = declaredOutput(z.object({ id: z.string() }))!;
    expect(lieAbout({ kind: 'empty' }, { id: 'x' }, new Rng(1), record)).toEqual({ kind: 'none' });
    // Without the schema the same answer is told `null`: its JSON shape is one record.
    expect(lieAbout({ kind: 'empty' }, { id: 'x' }, new Rng(1))).toEqual({ kind: 'told', answered: null });
  });

  it('never tells a lie the schema refuses: a value it cannot vary, a list it requires, a format it checks', () => {
    const one = declaredOutput(z.object({ kind: z.literal('order'), id: z.email() }))!;
    expect(lieAbout({ kind: 'wrong_value', path: 'kind' }, { kind: 'order', id: 'a@b.co' }, new Rng(1), one)).toEqual({
      kind: 'none',
    });
    expect(lieAbout({ kind: 'wrong_value', path: 'id' }, { kind: 'order', id: 'a@b.co' }, new Rng(1), one)).toEqual({
      kind: 'none',
    });
    const nonEmpty = declaredOutput(z.array(z.number()).min(2))!;
    expect(lieAbout({ kind: 'empty' }, [1, 2, 3], new Rng(1), nonEmpty)).toEqual({ kind: 'none' });
    expect(lieAbout({ kind: 'truncated', keep: 1 }, [1, 2, 3], new Rng(1), nonEmpty)).toEqual({ kind: 'none' });
    expect(lieAbout({ kind: 'truncated', keep: 2 }, [1, 2, 3], new Rng(1), nonEmpty)).toEqual({
      kind: 'told',
      answered: [1, 2],
    });
  });

  it('lies from the JSON shape when the schema refuses the truth itself (it does not describe this answer)', () => {
    const other = declaredOutput(z.object({ status: z.enum(['x', 'y']) }))!;
    const held = { status: 'open' };
    expect(lieAbout({ kind: 'wrong_value', path: 'status' }, held, new Rng(4), other)).toEqual(
      lieAbout({ kind: 'wrong_value', path: 'status' }, held, new Rng(4)),
    );
  });

  test.prop([fc.integer(), fc.constantFrom(...FIELDS)])(
    'a wrong_value lie is always another value the schema accepts, and the same for the same seed',
    (seed, path) => {
      const told = lieAbout({ kind: 'wrong_value', path }, HELD, new Rng(seed), schema);
      expect(lieAbout({ kind: 'wrong_value', path }, HELD, new Rng(seed), schema)).toEqual(told);
      if (told.kind === 'none') return;
      expect(told.answered).not.toEqual(HELD);
      expect(Order.safeParse(told.answered).success).toBe(true);
      const members = membersAt(Order, HELD, path.split('.'));
      const value = path.split('.').reduce<unknown>((v, p) => (v as Record<string, unknown>)[p], told.answered);
      if (members) expect(members).toContain(value);
    },
  );

  test.prop([fc.integer()])('an enum field always gets a lie: another member', (seed) => {
    const told = lieAbout({ kind: 'wrong_value', path: 'status' }, HELD, new Rng(seed), schema);
    expect(told.kind).toBe('told');
    expect(['open', 'shipped']).toContain((told as { answered: Order }).answered.status);
  });

  /** Any answer the schema accepts. */
  const answers: fc.Arbitrary<Order> = fc.record(
    {
      status: fc.constantFrom('open', 'paid', 'shipped'),
      lines: fc.array(
        fc.record({ sku: fc.constantFrom('a', 'b', 'c'), gift: fc.boolean(), qty: fc.integer({ min: 1, max: 5 }) }),
        { maxLength: 3 },
      ),
      priority: fc.option(fc.constantFrom('low', 'high'), { nil: null }),
      channel: fc.constantFrom('web', 'shop', 'phone'),
      note: fc.option(fc.string(), { nil: null }),
      tags: fc.array(fc.string(), { maxLength: 3 }),
      coupon: fc.string(),
      total: fc.nat(),
    },
    { requiredKeys: ['status', 'lines', 'channel', 'note', 'tags', 'total'] },
  );
  const lies = fc.oneof(
    fc.constant({ kind: 'empty' } as const),
    fc.nat({ max: 4 }).map((keep) => ({ kind: 'truncated', keep }) as const),
    fc.constantFrom(...FIELDS, 'lines.1.qty', 'tags.0').map((path) => ({ kind: 'wrong_value', path }) as const),
  );

  test.prop([answers, lies, fc.integer()])(
    'law: whatever the answer, the lie and the seed, a lie told is one the schema accepts, and differs from the truth',
    (held, fault, seed) => {
      expect(Order.safeParse(held).success).toBe(true);
      const told = lieAbout(fault, held, new Rng(seed), schema);
      if (told.kind === 'none') return;
      expect(told.answered).not.toEqual(held);
      expect(Order.safeParse(told.answered).success).toBe(true);
    },
  );
});
