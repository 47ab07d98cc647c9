import { z } from 'zod';
import { defineService } from '../define/defineService.js';
import { checkPayable } from './orderRules.js';
import { markOrderPaid, orderIn, type OrdersState } from './orders.js';
import { chargedPayment, checkChargeAmount, mustExistPayment, refundOf, refundView } from './paymentRules.js';
import { DEFAULT_MAX_AMOUNT_CENTS, type PaymentRecord, type PaymentView } from './paymentSchemas.js';
import { chargeDescription, PAYMENT_TOOLS } from './paymentTools.js';
import type { ServiceOptions } from './ServiceOptions.js';

export * from './paymentSchemas.js';

export interface PaymentsOptions extends ServiceOptions {
  /** The largest single charge, in cents (default 1,000,000): above it a charge is refused with 422 (R15). */
  readonly maxAmountCents?: number | undefined;
}

/** The payments service's state: every payment, keyed by its id. */
export type PaymentsState = Record<string, PaymentRecord>;

function paymentIn(state: PaymentsState, paymentId: string): PaymentView | undefined {
  const p = state[paymentId];
  return p && { paymentId, ...p };
}

/** Every payment with this reference, oldest first. */
export const paymentsByReference = (state: PaymentsState, paymentReference: string): PaymentView[] =>
  Object.entries(state)
    .filter(([, p]) => p.paymentReference === paymentReference)
    .map(([paymentId, p]) => ({ paymentId, ...p }));

/**
 * Payments. A charge naming an order of the same world's `orders` service marks it paid.
 * Both writes are plain: without an honoured idempotency key a duplicate charges twice.
 */
export const payments = defineService({
  name: 'payments',
  description: 'Payments: charge (optionally for an order), refund, get.',
  options: z.object({ maxAmountCents: z.number().int().positive().default(DEFAULT_MAX_AMOUNT_CENTS) }),
  state: (): PaymentsState => ({}),
  tools: {
    charge_payment: {
      ...PAYMENT_TOOLS.charge_payment,
      description: (options) => chargeDescription(options.maxAmountCents),
      check: (input, ctx) => checkChargeAmount(input.amountCents, ctx.options.maxAmountCents),
      run(input, ctx) {
        const orders = input.orderId === undefined ? undefined : ctx.peer<OrdersState>('orders');
        if (orders && input.orderId !== undefined) checkPayable(orderIn(orders, input.orderId), input.orderId);
        const paymentId = ctx.id('pay');
        const record = chargedPayment(input);
        ctx.state[paymentId] = record;
        if (orders && input.orderId !== undefined) markOrderPaid(orders, input.orderId);
        ctx.effect('payment.charged', { key: input.paymentReference, data: { paymentId, ...record } });
        return { paymentId, ...record };
      },
      status: (paymentReference, ctx) => paymentsByReference(ctx.state, paymentReference)[0],
    },
    refund_payment: {
      ...PAYMENT_TOOLS.refund_payment,
      run(input, ctx) {
        const refund = refundOf(
          mustExistPayment(paymentIn(ctx.state, input.paymentId), input.paymentId),
          input.amountCents,
        );
        const { paymentId, amountCents } = refund;
        ctx.state[paymentId] = refund.record;
        const refundId = ctx.id('rfd');
        ctx.effect('payment.refunded', { key: paymentId, data: { refundId, paymentId, amountCents } });
        return refundView(refundId, refund);
      },
      // Found by its idempotency key only: a refund has no business id of its own.
      status: () => undefined,
    },
    get_payment: {
      ...PAYMENT_TOOLS.get_payment,
      run: ({ paymentId }, ctx) => mustExistPayment(paymentIn(ctx.state, paymentId), paymentId),
    },
  },
});
