import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/index.js';
import { createWorld } from '../createWorld.js';
import { deliver, findTool, queryStatus } from '../deliver.js';
import type { WorldConfig } from '../WorldConfig.js';

const charge = { paymentReference: 'pay-ref-1', amountCents: 2_500, currency: 'eur' };
const charged = {
  paymentId: 'pay-1',
  paymentReference: 'pay-ref-1',
  amountCents: 2_500,
  currency: 'EUR',
  refundedCents: 0,
  status: 'charged',
};

function world(config: WorldConfig = { payments: {} }) {
  return createWorld(new VirtualClock(5_000), config);
}

describe('payments', () => {
  it('declares its tools and contract', () => {
    const w = world();
    expect(
      w.tools.map((t) => [t.name, t.risk, t.honoursIdempotencyKeys, t.canQueryStatus, t.businessKeyField]),
    ).toEqual([
      ['charge_payment', 'write', true, true, 'paymentReference'],
      ['refund_payment', 'write', true, true, undefined],
      ['get_payment', 'read', false, false, undefined],
    ]);
    const noKeys = world({ payments: { idempotency: false } });
    expect(noKeys.tools.map((t) => [t.name, t.honoursIdempotencyKeys, t.canQueryStatus])).toEqual([
      ['charge_payment', false, true],
      ['refund_payment', false, false],
      ['get_payment', false, false],
    ]);
    const input = findTool(w, 'charge_payment').input;
    expect(input.safeParse({ ...charge, currency: 'euro' }).success).toBe(false);
    expect(input.safeParse({ ...charge, tip: 1 }).success).toBe(false);
  });

  it('charges, records the effect and reads the payment back', async () => {
    const w = world();
    expect(await deliver(w, 'charge_payment', charge, { request: 'req-1', idempotencyKey: 'k-1' })).toEqual(charged);
    expect(await deliver(w, 'get_payment', { paymentId: 'pay-1' }, { request: 'req-2' })).toEqual(charged);
    expect(w.ledger.effects).toEqual([
      {
        seq: 0,
        at: 5_000,
        service: 'payments',
        effect: 'payment.charged',
        key: 'pay-ref-1',
        request: 'req-1',
        idempotencyKey: 'k-1',
        data: charged,
      },
    ]);
    await expect(deliver(w, 'get_payment', { paymentId: 'pay-2' }, { request: 'req-3' })).rejects.toMatchObject({
      status: 404,
      body: { error: { param: 'paymentId' } },
    });
  });

  it('marks the order it names as paid, and refuses unknown or cancelled orders', async () => {
    const w = world({ orders: {}, payments: {} });
    await deliver(
      w,
      'create_order',
      { clientReference: 'o', item: 'x', quantity: 1, amountCents: 2_500 },
      { request: 'r1' },
    );
    await deliver(w, 'charge_payment', { ...charge, orderId: 'ord-1' }, { request: 'r2' });
    expect(w.snapshot().services).toEqual({
      orders: { 'ord-1': { clientReference: 'o', item: 'x', quantity: 1, amountCents: 2_500, status: 'paid' } },
      payments: {
        'pay-1': {
          paymentReference: 'pay-ref-1',
          orderId: 'ord-1',
          amountCents: 2_500,
          currency: 'EUR',
          refundedCents: 0,
          status: 'charged',
        },
      },
    });
    await expect(
      deliver(w, 'charge_payment', { ...charge, orderId: 'ord-7' }, { request: 'r3' }),
    ).rejects.toMatchObject({
      status: 404,
      body: { error: { param: 'orderId', message: 'no order with id "ord-7"' } },
    });
    await deliver(
      w,
      'create_order',
      { clientReference: 'o2', item: 'x', quantity: 1, amountCents: 1 },
      { request: 'r4' },
    );
    await deliver(w, 'cancel_order', { orderId: 'ord-2' }, { request: 'r5' });
    await expect(
      deliver(w, 'charge_payment', { ...charge, orderId: 'ord-2' }, { request: 'r6' }),
    ).rejects.toMatchObject({
      status: 409,
      body: { error: { code: 'order_cancelled' } },
    });
    expect(w.ledger.effects.filter((e) => e.effect === 'payment.charged')).toHaveLength(1);
  });

  it('charges without checking orders when the world has no orders service', async () => {
    const w = world();
    expect(await deliver(w, 'charge_payment', { ...charge, orderId: 'ord-1' }, { request: 'r' })).toEqual({
      ...charged,
      orderId: 'ord-1',
    });
  });

  it('refuses an amount over the ceiling with 422 naming the field, and reports it as failed', async () => {
    const w = world();
    const over = { ...charge, amountCents: 1_000_001 };
    await expect(deliver(w, 'charge_payment', over, { request: 'r1' })).rejects.toMatchObject({
      status: 422,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'amount_too_large',
          param: 'amountCents',
          message: 'amountCents must be at most 1000000',
        },
      },
    });
    expect(await deliver(w, 'charge_payment', { ...charge, amountCents: 1_000_000 }, { request: 'r2' })).toMatchObject({
      amountCents: 1_000_000,
    });
    expect(w.ledger.length).toBe(1);

    const low = world({ payments: { maxAmountCents: 100 } });
    await expect(deliver(low, 'charge_payment', charge, { request: 'r1' })).rejects.toMatchObject({ status: 422 });
    expect(await queryStatus(low, 'charge_payment', { op: 'op', input: charge }, { request: 's' })).toEqual({
      state: 'failed',
      status: 422,
      message: 'amountCents must be at most 100',
    });
    expect(low.ledger.length).toBe(0);
  });

  it('replays a charge for a reused key and charges twice without one', async () => {
    const w = world();
    await deliver(w, 'charge_payment', charge, { request: 'r1', idempotencyKey: 'k' });
    await deliver(w, 'charge_payment', charge, { request: 'r2', idempotencyKey: 'k' });
    expect(w.ledger.length).toBe(1);
    await deliver(w, 'charge_payment', charge, { request: 'r3' });
    expect(w.ledger.effects.map((e) => (e.data as { paymentId: string }).paymentId)).toEqual(['pay-1', 'pay-2']);
  });

  it('refunds in part, then the rest, then refuses', async () => {
    const w = world();
    await deliver(w, 'charge_payment', charge, { request: 'r1' });
    expect(
      await deliver(
        w,
        'refund_payment',
        { paymentId: 'pay-1', amountCents: 1_000 },
        { request: 'r2', idempotencyKey: 'rk' },
      ),
    ).toEqual({
      refundId: 'rfd-1',
      paymentId: 'pay-1',
      amountCents: 1_000,
      payment: { ...charged, refundedCents: 1_000, status: 'partially_refunded' },
    });
    await expect(
      deliver(w, 'refund_payment', { paymentId: 'pay-1', amountCents: 2_000 }, { request: 'r3' }),
    ).rejects.toMatchObject({
      status: 422,
      body: {
        error: { param: 'amountCents', message: 'amountCents must be at most 1500, the amount not yet refunded' },
      },
    });
    expect(await deliver(w, 'refund_payment', { paymentId: 'pay-1' }, { request: 'r4' })).toMatchObject({
      refundId: 'rfd-2',
      amountCents: 1_500,
      payment: { refundedCents: 2_500, status: 'refunded' },
    });
    await expect(deliver(w, 'refund_payment', { paymentId: 'pay-1' }, { request: 'r5' })).rejects.toMatchObject({
      status: 409,
    });
    await expect(deliver(w, 'refund_payment', { paymentId: 'pay-9' }, { request: 'r6' })).rejects.toMatchObject({
      status: 404,
    });
    expect(
      w.ledger.effects
        .filter((e) => e.effect === 'payment.refunded')
        .map((e) => [e.key, e.request, e.idempotencyKey, e.data]),
    ).toEqual([
      ['pay-1', 'r2', 'rk', { refundId: 'rfd-1', paymentId: 'pay-1', amountCents: 1_000 }],
      ['pay-1', 'r4', undefined, { refundId: 'rfd-2', paymentId: 'pay-1', amountCents: 1_500 }],
    ]);
    expect(
      await queryStatus(w, 'refund_payment', { op: 'o', idempotencyKey: 'rk', input: {} }, { request: 's' }),
    ).toMatchObject({
      state: 'succeeded',
      value: { refundId: 'rfd-1' },
    });
    expect(
      await queryStatus(w, 'refund_payment', { op: 'o', input: { paymentId: 'pay-1' } }, { request: 's' }),
    ).toEqual({ state: 'not_found' });
  });

  it('answers status queries for a charge by key and by payment reference', async () => {
    const w = world();
    await deliver(w, 'charge_payment', charge, { request: 'r1', idempotencyKey: 'k' });
    expect(
      await queryStatus(w, 'charge_payment', { op: 'o', idempotencyKey: 'k', input: charge }, { request: 's' }),
    ).toEqual({ state: 'succeeded', value: charged });
    expect(
      await queryStatus(w, 'charge_payment', { op: 'o', businessKey: 'pay-ref-1', input: {} }, { request: 's' }),
    ).toEqual({ state: 'succeeded', value: charged });
    expect(
      await queryStatus(
        w,
        'charge_payment',
        { op: 'o', input: { ...charge, paymentReference: 'other' } },
        { request: 's' },
      ),
    ).toEqual({ state: 'not_found' });
  });
});
