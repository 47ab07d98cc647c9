import { z } from 'zod';

export const CreateOrderInput = z
  .object({
    clientReference: z.string().min(1),
    item: z.string().min(1),
    quantity: z.number().int().positive(),
    amountCents: z.number().int().positive(),
  })
  .strict();
export type CreateOrderInput = z.infer<typeof CreateOrderInput>;

export const OrderIdInput = z.object({ orderId: z.string().min(1) }).strict();
export type OrderIdInput = z.infer<typeof OrderIdInput>;

export const FindOrderByReferenceInput = z.object({ clientReference: z.string().min(1) }).strict();
export type FindOrderByReferenceInput = z.infer<typeof FindOrderByReferenceInput>;

export const ORDER_STATUSES = ['created', 'paid', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order as the snapshot keeps it, keyed by its id. */
export interface OrderRecord {
  readonly clientReference: string;
  readonly item: string;
  readonly quantity: number;
  readonly amountCents: number;
  readonly status: OrderStatus;
}

/** An order as tools return it. */
export type OrderView = { readonly orderId: string } & OrderRecord;
