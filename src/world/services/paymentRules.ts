import { invalidRequest, notFound, stateConflict } from './httpErrors.js';
import type { ChargePaymentInput, PaymentRecord, PaymentView, RefundView } from './paymentSchemas.js';

/** Checked on arrival (R15). @throws HttpError 422 `amount_too_large` above `maxAmountCents`. */
export function checkChargeAmount(amountCents: number, maxAmountCents: number): void {
  if (amountCents > maxAmountCents) {
    throw invalidRequest('amountCents', `amountCents must be at most ${maxAmountCents}`, 'amount_too_large');
  }
}

/** A new payment: charged in full, nothing refunded, the currency upper-cased. */
export const chargedPayment = (input: ChargePaymentInput): PaymentRecord => ({
  paymentReference: input.paymentReference,
  ...(input.orderId === undefined ? {} : { orderId: input.orderId }),
  amountCents: input.amountCents,
  currency: input.currency.toUpperCase(),
  refundedCents: 0,
  status: 'charged',
});

/** @throws HttpError 404 naming `paymentId` when there is no such payment. */
export function mustExistPayment(payment: PaymentView | undefined, paymentId: string): PaymentView {
  if (!payment) throw notFound('paymentId', `no payment with id "${paymentId}"`);
  return payment;
}

/** What one refund does to its payment. */
export interface Refund {
  readonly paymentId: string;
  readonly amountCents: number;
  /** The payment after the refund. */
  readonly record: PaymentRecord;
}

/**
 * Refunds `requestedCents` of the payment, or all that is left of it.
 * @throws HttpError 409 `payment_refunded` when nothing is left, 422 `amount_too_large` when asked for more.
 */
export function refundOf(payment: PaymentView, requestedCents: number | undefined): Refund {
  const remaining = payment.amountCents - payment.refundedCents;
  const amountCents = requestedCents ?? remaining;
  if (remaining === 0)
    throw stateConflict('payment_refunded', `payment ${payment.paymentId} is already fully refunded`);
  if (amountCents > remaining) {
    throw invalidRequest(
      'amountCents',
      `amountCents must be at most ${remaining}, the amount not yet refunded`,
      'amount_too_large',
    );
  }
  const { paymentId, ...rest } = payment;
  const refundedCents = payment.refundedCents + amountCents;
  const record: PaymentRecord = {
    ...rest,
    refundedCents,
    status: refundedCents === payment.amountCents ? 'refunded' : 'partially_refunded',
  };
  return { paymentId, amountCents, record };
}

/** What `refund_payment` answers. */
export const refundView = (refundId: string, { paymentId, amountCents, record }: Refund): RefundView => ({
  refundId,
  paymentId,
  amountCents,
  payment: { paymentId, ...record },
});
