import { notFound, stateConflict } from './httpErrors.js';
import type { CreateOrderInput, OrderRecord, OrderView } from './orderSchemas.js';

/** A new order: what the caller sent, not yet paid. */
export const createdOrder = (input: CreateOrderInput): OrderRecord => ({ ...input, status: 'created' });

/** @throws HttpError 404 naming `orderId` when there is no such order. */
export function mustExistOrder(order: OrderView | undefined, orderId: string): OrderView {
  if (!order) throw notFound('orderId', `no order with id "${orderId}"`);
  return order;
}

/** What cancelling an order does: nothing to a cancelled one, else the record to store. */
export type Cancellation =
  | { readonly kind: 'unchanged'; readonly order: OrderView }
  | { readonly kind: 'cancel'; readonly orderId: string; readonly record: OrderRecord };
export type CancellationKind = Cancellation['kind'];

/** @throws HttpError 409 `order_paid`: a paid order is refunded, not cancelled. */
export function cancellationOf(order: OrderView): Cancellation {
  if (order.status === 'cancelled') return { kind: 'unchanged', order };
  if (order.status === 'paid') {
    throw stateConflict(
      'order_paid',
      `order ${order.orderId} is paid and cannot be cancelled; refund the payment instead`,
    );
  }
  const { orderId, ...rest } = order;
  return { kind: 'cancel', orderId, record: { ...rest, status: 'cancelled' } };
}

/** What a `cancel_order` status query finds: the order, only once it is cancelled. */
export const cancelledOnly = (order: OrderView | undefined): OrderView | undefined =>
  order?.status === 'cancelled' ? order : undefined;

/** A charge may name an order that exists and is not cancelled. @throws HttpError 404 or 409 `order_cancelled`. */
export function checkPayable(order: OrderView | undefined, orderId: string): void {
  if (!order) throw notFound('orderId', `no order with id "${orderId}"`);
  if (order.status === 'cancelled')
    throw stateConflict('order_cancelled', `order ${orderId} is cancelled and cannot be paid`);
}
