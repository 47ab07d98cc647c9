import { describe, expect, it } from 'vitest';
import { HttpError, VirtualClock } from '../../core/index.js';
import { createWorld } from '../createWorld.js';
import { deliver, findTool, queryStatus } from '../deliver.js';
import type { OrdersOptions } from './orders.js';

const order = { clientReference: 'ref-1', item: 'book', quantity: 2, amountCents: 1_500 };

function ordersWorld(options: OrdersOptions = {}) {
  const clock = new VirtualClock(1_000);
  return { clock, world: createWorld(clock, { orders: options }) };
}

describe('orders', () => {
  it('declares its tools, strict schemas and contract', () => {
    const { world } = ordersWorld();
    expect(
      world.tools.map((t) => [t.name, t.risk, t.honoursIdempotencyKeys, t.canQueryStatus, t.businessKeyField]),
    ).toEqual([
      ['create_order', 'write', true, true, 'clientReference'],
      ['get_order', 'read', false, false, undefined],
      ['find_order_by_reference', 'read', false, false, undefined],
      ['cancel_order', 'idempotent-write', true, true, 'orderId'],
    ]);
    expect(findTool(world, 'create_order').input.safeParse({ ...order, extra: 1 }).success).toBe(false);
    expect(findTool(world, 'create_order').input.safeParse({ ...order, quantity: 0 }).success).toBe(false);
    expect(ordersWorld({ idempotency: false }).world.tools[0]?.honoursIdempotencyKeys).toBe(false);
  });

  it('creates, gets and finds an order, committing one ledger effect', async () => {
    const { world } = ordersWorld();
    const created = await deliver(world, 'create_order', order, { request: 'req-1', idempotencyKey: 'idem-1' });
    expect(created).toEqual({ orderId: 'ord-1', ...order, status: 'created' });
    expect(await deliver(world, 'get_order', { orderId: 'ord-1' }, { request: 'req-2' })).toEqual(created);
    expect(await deliver(world, 'find_order_by_reference', { clientReference: 'ref-1' }, { request: 'req-3' })).toEqual(
      [created],
    );
    expect(await deliver(world, 'find_order_by_reference', { clientReference: 'nope' }, { request: 'req-4' })).toEqual(
      [],
    );
    expect(world.ledger.effects).toEqual([
      {
        seq: 0,
        at: 1_000,
        service: 'orders',
        effect: 'order.created',
        key: 'ref-1',
        request: 'req-1',
        idempotencyKey: 'idem-1',
        data: { orderId: 'ord-1', ...order, status: 'created' },
      },
    ]);
    expect(world.snapshot().services).toEqual({ orders: { 'ord-1': { ...order, status: 'created' } } });
  });

  it('answers 404 naming the field for an unknown order', async () => {
    const { world } = ordersWorld();
    await expect(deliver(world, 'get_order', { orderId: 'ord-9' }, { request: 'r' })).rejects.toMatchObject({
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: 'orderId',
          message: 'no order with id "ord-9"',
        },
      },
    });
  });

  it('makes a duplicate order from a duplicate delivery without a key, visible by reference', async () => {
    const { world } = ordersWorld();
    await deliver(world, 'create_order', order, { request: 'req-1' });
    await deliver(world, 'create_order', order, { request: 'req-1' });
    const found = (await deliver(world, 'find_order_by_reference', { clientReference: 'ref-1' }, { request: 'q' })) as {
      orderId: string;
    }[];
    expect(found.map((o) => o.orderId)).toEqual(['ord-1', 'ord-2']);
    expect(world.ledger.effects.map((e) => [e.effect, e.key, 'idempotencyKey' in e])).toEqual([
      ['order.created', 'ref-1', false],
      ['order.created', 'ref-1', false],
    ]);
  });

  it('replays the first answer for a reused key, and duplicates when idempotency is off', async () => {
    const on = ordersWorld().world;
    const first = await deliver(on, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' });
    expect(await deliver(on, 'create_order', order, { request: 'req-2', idempotencyKey: 'k' })).toBe(first);
    expect(on.ledger.length).toBe(1);
    await expect(
      deliver(on, 'create_order', { ...order, quantity: 3 }, { request: 'req-3', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({
      status: 422,
      body: { error: { code: 'key_reused_with_different_parameters' } },
    });

    const off = ordersWorld({ idempotency: false }).world;
    await deliver(off, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' });
    await deliver(off, 'create_order', order, { request: 'req-2', idempotencyKey: 'k' });
    expect(off.ledger.effects.map((e) => [e.key, e.idempotencyKey, e.data])).toEqual([
      ['ref-1', 'k', { orderId: 'ord-1', ...order, status: 'created' }],
      ['ref-1', 'k', { orderId: 'ord-2', ...order, status: 'created' }],
    ]);
  });

  it('refuses a concurrent duplicate with 409 while the first is processing', async () => {
    const { clock, world } = ordersWorld({ processingMs: 200 });
    const run = await clock.run(async () => {
      const first = deliver(world, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' });
      const second = deliver(world, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' }).catch(
        (e: unknown) => e,
      );
      return { first: await first, second: await second, at: clock.now() };
    });
    expect(run.kind).toBe('settled');
    if (run.kind !== 'settled') return;
    expect(run.value.first).toEqual({ orderId: 'ord-1', ...order, status: 'created' });
    expect(run.value.second).toBeInstanceOf(HttpError);
    expect(run.value.second).toMatchObject({
      status: 409,
      body: { error: { type: 'idempotency_error', code: 'concurrent_request' } },
    });
    expect(run.value.at).toBe(1_200);
    expect(world.ledger.effects.map((e) => [e.at, e.effect])).toEqual([[1_200, 'order.created']]);
  });

  it('runs concurrent duplicates twice when idempotency is off', async () => {
    const { clock, world } = ordersWorld({ idempotency: false, processingMs: 200 });
    expect(
      await clock.run(() =>
        Promise.all([
          deliver(world, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' }),
          deliver(world, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' }),
        ]),
      ),
    ).toMatchObject({ kind: 'settled' });
    expect(Object.keys(world.snapshot().services.orders as object)).toEqual(['ord-1', 'ord-2']);
  });

  it('answers status queries by idempotency key and by business key', async () => {
    const { clock, world } = ordersWorld({ processingMs: 100 });
    const ref = (extra: object) => ({ op: 'op-1', input: order, ...extra });
    expect(
      await clock.run(async () => {
        expect(await queryStatus(world, 'create_order', ref({ idempotencyKey: 'k' }), { request: 's0' })).toEqual({
          state: 'not_found',
        });
        const pending = deliver(world, 'create_order', order, { request: 'req-1', idempotencyKey: 'k' });
        expect(await queryStatus(world, 'create_order', ref({ idempotencyKey: 'k' }), { request: 's1' })).toEqual({
          state: 'pending',
        });
        expect(await queryStatus(world, 'create_order', ref({}), { request: 's2' })).toEqual({ state: 'pending' });
        await pending;
      }),
    ).toMatchObject({ kind: 'settled' });
    const value = { orderId: 'ord-1', ...order, status: 'created' };
    expect(await queryStatus(world, 'create_order', ref({ idempotencyKey: 'k' }), { request: 's3' })).toEqual({
      state: 'succeeded',
      value,
    });
    // By the business key in the input, and by an explicit business key.
    expect(await queryStatus(world, 'create_order', ref({}), { request: 's4' })).toEqual({ state: 'succeeded', value });
    expect(
      await queryStatus(world, 'create_order', { op: 'op-2', businessKey: 'ref-1', input: {} }, { request: 's5' }),
    ).toEqual({ state: 'succeeded', value });
    expect(
      await queryStatus(world, 'create_order', { op: 'op-3', businessKey: 'ref-2', input: {} }, { request: 's6' }),
    ).toEqual({ state: 'not_found' });
    // A key the server does not know falls back to the business key.
    expect(await queryStatus(world, 'create_order', ref({ idempotencyKey: 'other' }), { request: 's7' })).toEqual({
      state: 'succeeded',
      value,
    });
  });

  it('cancels once, idempotently, and refuses to cancel a paid order', async () => {
    const { world } = createWorldWithPayments();
    await deliver(world, 'create_order', order, { request: 'req-1' });
    await deliver(world, 'create_order', { ...order, clientReference: 'ref-2' }, { request: 'req-2' });
    const cancelled = { orderId: 'ord-1', ...order, status: 'cancelled' };
    expect(await deliver(world, 'cancel_order', { orderId: 'ord-1' }, { request: 'req-3' })).toEqual(cancelled);
    expect(await deliver(world, 'cancel_order', { orderId: 'ord-1' }, { request: 'req-4' })).toEqual(cancelled);
    expect(world.ledger.effects.filter((e) => e.effect === 'order.cancelled')).toEqual([
      {
        seq: 2,
        at: 0,
        service: 'orders',
        effect: 'order.cancelled',
        key: 'ord-1',
        request: 'req-3',
        data: { orderId: 'ord-1' },
      },
    ]);
    expect(
      await queryStatus(world, 'cancel_order', { op: 'o', input: { orderId: 'ord-1' } }, { request: 's' }),
    ).toEqual({ state: 'succeeded', value: cancelled });
    expect(
      await queryStatus(world, 'cancel_order', { op: 'o', input: { orderId: 'ord-2' } }, { request: 's' }),
    ).toEqual({ state: 'not_found' });

    await deliver(
      world,
      'charge_payment',
      { paymentReference: 'p', orderId: 'ord-2', amountCents: 1_500, currency: 'EUR' },
      { request: 'req-5' },
    );
    await expect(deliver(world, 'cancel_order', { orderId: 'ord-2' }, { request: 'req-6' })).rejects.toMatchObject({
      status: 409,
      body: { error: { code: 'order_paid' } },
    });
    expect(
      await queryStatus(world, 'cancel_order', { op: 'o', input: { orderId: 'ord-2' } }, { request: 's' }),
    ).toEqual({
      state: 'failed',
      status: 409,
      message: 'order ord-2 is paid and cannot be cancelled; refund the payment instead',
    });
  });
});

function createWorldWithPayments() {
  const clock = new VirtualClock();
  return { clock, world: createWorld(clock, { orders: {}, payments: {} }) };
}
