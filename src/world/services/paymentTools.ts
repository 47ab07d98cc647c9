import type { ToolSpec } from '../tool.js';
import {
  ChargePaymentInput,
  PaymentIdInput,
  RefundPaymentInput,
  type PaymentView,
  type RefundView,
} from './paymentSchemas.js';
import { writeToolSpec, type WriteTool } from './writeTool.js';

/** `charge_payment`'s description names the ceiling, which a scenario may change. */
export const chargeDescription = (maxAmountCents: number): string =>
  `Charge a payment (at most ${maxAmountCents} cents). paymentReference is your business id for it; ` +
  `orderId, if given, marks that order paid.`;

/**
 * The payments tools' contracts, shared by the in-memory service (declared with
 * `defineService`) and the Postgres backend.
 */
export const PAYMENT_TOOLS = {
  charge_payment: { risk: 'write', input: ChargePaymentInput, businessKey: 'paymentReference' },
  // Refunds have no business id of their own: only an honoured idempotency key finds one.
  refund_payment: {
    description: 'Refund a payment, in full or amountCents of it. Each delivery refunds again.',
    risk: 'write',
    input: RefundPaymentInput,
  },
  get_payment: { description: 'Get one payment by its id.', risk: 'read', input: PaymentIdInput },
} as const;

/** What a database backend supplies to the payments tools. */
export interface PaymentsBackend {
  readonly honoursIdempotencyKeys: boolean;
  readonly maxAmountCents: number;
  readonly charge: WriteTool<ChargePaymentInput, PaymentView>;
  readonly refund: WriteTool<RefundPaymentInput, RefundView>;
  getPayment(paymentId: string): Promise<PaymentView> | PaymentView;
}

/** The payments tools over a database backend (the in-memory service is declared in `payments.ts`). */
export function paymentTools(backend: PaymentsBackend): readonly ToolSpec[] {
  const { charge_payment, refund_payment, get_payment } = PAYMENT_TOOLS;
  const honours = backend.honoursIdempotencyKeys;
  const getPayment: ToolSpec<PaymentIdInput, PaymentView> = {
    name: 'get_payment',
    ...get_payment,
    honoursIdempotencyKeys: false,
    canQueryStatus: false,
    run: ({ paymentId }) => backend.getPayment(paymentId),
  };
  return [
    writeToolSpec(
      {
        name: 'charge_payment',
        description: chargeDescription(backend.maxAmountCents),
        ...charge_payment,
        canQueryStatus: true,
        businessKeyField: charge_payment.businessKey,
      },
      honours,
      backend.charge,
    ),
    writeToolSpec({ name: 'refund_payment', ...refund_payment, canQueryStatus: honours }, honours, backend.refund),
    getPayment,
  ] as readonly ToolSpec[];
}
