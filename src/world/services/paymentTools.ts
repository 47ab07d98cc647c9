import type { ToolSpec } from '../tool.js';
import {
  ChargePaymentInput,
  PaymentIdInput,
  RefundPaymentInput,
  type PaymentView,
  type RefundView,
} from './paymentSchemas.js';
import { writeToolSpec, type WriteTool } from './writeTool.js';

/** What a backend supplies to the payments tools; names, schemas, risks and descriptions live here. */
export interface PaymentsBackend {
  readonly honoursIdempotencyKeys: boolean;
  readonly maxAmountCents: number;
  readonly charge: WriteTool<ChargePaymentInput, PaymentView>;
  readonly refund: WriteTool<RefundPaymentInput, RefundView>;
  getPayment(paymentId: string): Promise<PaymentView> | PaymentView;
}

/** The payments tools, as both the in-memory and the Postgres backend expose them. */
export function paymentTools(backend: PaymentsBackend): readonly ToolSpec[] {
  return [charge(backend), refund(backend), getPayment(backend)];
}

function charge(backend: PaymentsBackend): ToolSpec<ChargePaymentInput, PaymentView> {
  const definition = {
    name: 'charge_payment',
    description: `Charge a payment (at most ${backend.maxAmountCents} cents). paymentReference is your business id for it; orderId, if given, marks that order paid.`,
    risk: 'write',
    input: ChargePaymentInput,
    canQueryStatus: true,
    businessKeyField: 'paymentReference',
  } as const;
  return writeToolSpec(definition, backend.honoursIdempotencyKeys, backend.charge);
}

function refund(backend: PaymentsBackend): ToolSpec<RefundPaymentInput, RefundView> {
  const definition = {
    name: 'refund_payment',
    description: 'Refund a payment, in full or amountCents of it. Each delivery refunds again.',
    risk: 'write',
    input: RefundPaymentInput,
    // Refunds have no business id of their own: only an honoured idempotency key finds one.
    canQueryStatus: backend.honoursIdempotencyKeys,
  } as const;
  return writeToolSpec(definition, backend.honoursIdempotencyKeys, backend.refund);
}

function getPayment(backend: PaymentsBackend): ToolSpec<PaymentIdInput, PaymentView> {
  return {
    name: 'get_payment',
    description: 'Get one payment by its id.',
    risk: 'read',
    input: PaymentIdInput,
    honoursIdempotencyKeys: false,
    canQueryStatus: false,
    run: ({ paymentId }) => backend.getPayment(paymentId),
  };
}
