import { IdSource, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import type { ToolSpec } from '../tool.js';
import { Operations } from './Operations.js';
import { checkPayable } from './orderRules.js';
import { OrdersService } from './orders.js';
import { chargedPayment, checkChargeAmount, mustExistPayment, refundOf, refundView } from './paymentRules.js';
import { DEFAULT_MAX_AMOUNT_CENTS, type PaymentRecord, type PaymentView } from './paymentSchemas.js';
import { paymentTools } from './paymentTools.js';
import { serviceOf } from './serviceOf.js';
import type { ServiceOptions } from './ServiceOptions.js';

export * from './paymentSchemas.js';

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
    this.tools = this.#tools();
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

  #tools(): readonly ToolSpec[] {
    return paymentTools({
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      maxAmountCents: this.maxAmountCents,
      charge: {
        run: (input, ctx, op) =>
          this.#ops.write(op.tool, input, op.businessKey, ctx, {
            check: () => checkChargeAmount(input.amountCents, this.maxAmountCents),
            commit: () => {
              const orders = input.orderId === undefined ? undefined : serviceOf(ctx, 'orders', OrdersService);
              if (orders && input.orderId !== undefined) checkPayable(orders.order(input.orderId), input.orderId);
              const paymentId = this.#ids.next('pay');
              const record = chargedPayment(input);
              this.#payments.set(paymentId, record);
              if (orders && input.orderId !== undefined) orders.markPaid(input.orderId);
              this.#ops.commit(ctx, 'payment.charged', input.paymentReference, { paymentId, ...record });
              return { paymentId, ...record };
            },
          }),
        status: (ref, field) => this.#ops.status(ref, field, (key) => this.byReference(key)[0]),
      },
      refund: {
        run: (input, ctx, op) =>
          this.#ops.write(op.tool, input, op.businessKey, ctx, {
            commit: () => {
              const refund = refundOf(this.#mustFind(input.paymentId), input.amountCents);
              const { paymentId, amountCents } = refund;
              this.#payments.set(paymentId, refund.record);
              const refundId = this.#ids.next('rfd');
              this.#ops.commit(ctx, 'payment.refunded', paymentId, { refundId, paymentId, amountCents });
              return refundView(refundId, refund);
            },
          }),
        status: (ref, field) => this.#ops.status(ref, field, () => undefined),
      },
      getPayment: (paymentId) => this.#mustFind(paymentId),
    });
  }

  #mustFind(paymentId: string): PaymentView {
    return mustExistPayment(this.payment(paymentId), paymentId);
  }
}
