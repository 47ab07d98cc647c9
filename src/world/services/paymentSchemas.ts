import { z } from 'zod';

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
