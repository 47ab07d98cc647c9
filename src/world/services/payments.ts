import { z } from 'zod';
import { IdSource, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import type { ToolContext, ToolSpec } from '../tool.js';
import { invalidRequest, notFound, stateConflict } from './httpErrors.js';
import { Operations } from './Operations.js';
import { OrdersService } from './orders.js';
import type { ServiceOptions } from './ServiceOptions.js';

export const DEFAULT_MAX_AMOUNT_CENTS = 1_000_000;

export const ChargePaymentInput = z
  .object({
    paymentReference: z.string().min(1),
    orderId: z.string().min(1).optional(),
    amountCents: z.number().int().positive(),
    currency: z.string().regex(/^[A-Za-z]{3}$/, 'an ISO 4217 code such as "EUR"'),
  })
  .strict();
export type ChargePaymentInput = z.infer<typeof ChargePaymentInput>;

export const RefundPaymentInput = z
  .object({ paymentId: z.string().min(1), amountCents: z.number().int().positive().optional() })
  .strict();
export type RefundPaymentInput = z.infer<typeof RefundPaymentInput>;

export const PaymentIdInput = z.object({ paymentId: z.string().min(1) }).strict();
export type PaymentIdInput = z.infer<typeof PaymentIdInput>;

export const PAYMENT_STATUSES = ['charged', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A payment as the snapshot keeps it, keyed by its id. */
export interface PaymentRecord {
  readonly paymentReference: string;
  readonly orderId?: string;
  readonly amountCents: number;
  readonly currency: string;
  readonly refundedCents: number;
  readonly status: PaymentStatus;
}

export type PaymentView = { readonly paymentId: string } & PaymentRecord;

export interface RefundView {
  readonly refundId: string;
  readonly paymentId: string;
  readonly amountCents: number;
  readonly payment: PaymentView;
}

export interface PaymentsOptions extends ServiceOptions {
  /** The largest single charge, in cents (default 1,000,000): above it a charge is refused with 422 (R15). */
  readonly maxAmountCents?: number | undefined;
}

/**
 * Payments. A charge naming an order of the same world's `orders` service marks it paid.
 * Both writes are plain: without an honoured idempotency key a duplicate charges twice.
 */
export class PaymentsService implements Service {
  readonly name = 'payments';
  readonly tools: readonly ToolSpec[];
  readonly maxAmountCents: number;
  readonly #payments = new Map<string, PaymentRecord>();
  readonly #ids = new IdSource();
  readonly #ops: Operations;

  constructor(clock: Clock, options: PaymentsOptions = {}) {
    this.#ops = new Operations(this.name, clock, options);
    this.maxAmountCents = options.maxAmountCents ?? DEFAULT_MAX_AMOUNT_CENTS;
    this.tools = [this.#charge(), this.#refund(), this.#get()];
  }

  payment(paymentId: string): PaymentView | undefined {
    const p = this.#payments.get(paymentId);
    return p && { paymentId, ...p };
  }

  /** Every payment with this reference, oldest first. */
  byReference(paymentReference: string): PaymentView[] {
    return [...this.#payments]
      .filter(([, p]) => p.paymentReference === paymentReference)
      .map(([paymentId, p]) => ({ paymentId, ...p }));
  }

  snapshot(): Record<string, PaymentRecord> {
    return Object.fromEntries(this.#payments);
  }

  #charge(): ToolSpec<ChargePaymentInput, PaymentView> {
    return {
      name: 'charge_payment',
      description: `Charge a payment (at most ${this.maxAmountCents} cents). paymentReference is your business id for it; orderId, if given, marks that order paid.`,
      risk: 'write',
      input: ChargePaymentInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      canQueryStatus: true,
      businessKeyField: 'paymentReference',
      run: (input, ctx) =>
        this.#ops.write('charge_payment', input, input.paymentReference, ctx, {
          check: () => {
            if (input.amountCents > this.maxAmountCents) {
              throw invalidRequest('amountCents', `amountCents must be at most ${this.maxAmountCents}`, 'amount_too_large');
            }
          },
          commit: () => {
            const orders = input.orderId === undefined ? undefined : ordersOf(ctx);
            if (orders && input.orderId !== undefined) checkPayable(orders, input.orderId);
            const paymentId = this.#ids.next('pay');
            const record: PaymentRecord = {
              paymentReference: input.paymentReference,
              ...(input.orderId === undefined ? {} : { orderId: input.orderId }),
              amountCents: input.amountCents,
              currency: input.currency.toUpperCase(),
              refundedCents: 0,
              status: 'charged',
            };
            this.#payments.set(paymentId, record);
            if (orders && input.orderId !== undefined) orders.markPaid(input.orderId);
            this.#ops.commit(ctx, 'payment.charged', input.paymentReference, { paymentId, ...record });
            return { paymentId, ...record };
          },
        }),
      status: (ref) => this.#ops.status(ref, 'paymentReference', (key) => this.byReference(key)[0]),
    };
  }

  #refund(): ToolSpec<RefundPaymentInput, RefundView> {
    return {
      name: 'refund_payment',
      description: 'Refund a payment, in full or amountCents of it. Each delivery refunds again.',
      risk: 'write',
      input: RefundPaymentInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      // Refunds have no business id of their own: only an honoured idempotency key finds one.
      canQueryStatus: this.#ops.honoursIdempotencyKeys,
      run: (input, ctx) =>
        this.#ops.write('refund_payment', input, undefined, ctx, {
          commit: () => {
            const payment = this.#mustFind(input.paymentId);
            const remaining = payment.amountCents - payment.refundedCents;
            const amountCents = input.amountCents ?? remaining;
            if (remaining === 0) throw stateConflict('payment_refunded', `payment ${input.paymentId} is already fully refunded`);
            if (amountCents > remaining) {
              throw invalidRequest('amountCents', `amountCents must be at most ${remaining}, the amount not yet refunded`, 'amount_too_large');
            }
            const { paymentId, ...rest } = payment;
            const refundedCents = payment.refundedCents + amountCents;
            const record: PaymentRecord = {
              ...rest,
              refundedCents,
              status: refundedCents === payment.amountCents ? 'refunded' : 'partially_refunded',
            };
            this.#payments.set(paymentId, record);
            const refundId = this.#ids.next('rfd');
            this.#ops.commit(ctx, 'payment.refunded', paymentId, { refundId, paymentId, amountCents });
            return { refundId, paymentId, amountCents, payment: { paymentId, ...record } };
          },
        }),
      status: (ref) => this.#ops.status(ref, undefined, () => undefined),
    };
  }

  #get(): ToolSpec<PaymentIdInput, PaymentView> {
    return {
      name: 'get_payment',
      description: 'Get one payment by its id.',
      risk: 'read',
      input: PaymentIdInput,
      honoursIdempotencyKeys: false,
      canQueryStatus: false,
      run: ({ paymentId }) => this.#mustFind(paymentId),
    };
  }

  #mustFind(paymentId: string): PaymentView {
    const payment = this.payment(paymentId);
    if (!payment) throw notFound('paymentId', `no payment with id "${paymentId}"`);
    return payment;
  }
}

/** The world's orders service, if it has one: payments work alone too. */
function ordersOf(ctx: ToolContext): OrdersService | undefined {
  const orders = ctx.world.services.find((s) => s.name === 'orders');
  return orders instanceof OrdersService ? orders : undefined;
}

function checkPayable(orders: OrdersService, orderId: string): void {
  const order = orders.order(orderId);
  if (!order) throw notFound('orderId', `no order with id "${orderId}"`);
  if (order.status === 'cancelled') throw stateConflict('order_cancelled', `order ${orderId} is cancelled and cannot be paid`);
}
