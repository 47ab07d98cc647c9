import { defineService } from '../define/defineService.js';
import { cancellationOf, cancelledOnly, createdOrder, mustExistOrder } from './orderRules.js';
import type { OrderRecord, OrderView } from './orderSchemas.js';
import { ORDER_TOOLS } from './orderTools.js';
import type { ServiceOptions } from './ServiceOptions.js';

export * from './orderSchemas.js';

export type OrdersOptions = ServiceOptions;

/** The orders service's state: every order, keyed by its id. */
export type OrdersState = Record<string, OrderRecord>;

/** An order by id, as tools return it. */
export function orderIn(state: OrdersState, orderId: string): OrderView | undefined {
  const o = state[orderId];
  return o && { orderId, ...o };
}

/** Every order with this client reference, oldest first. */
export const ordersByReference = (state: OrdersState, clientReference: string): OrderView[] =>
  Object.entries(state)
    .filter(([, o]) => o.clientReference === clientReference)
    .map(([orderId, o]) => ({ orderId, ...o }));

/**
 * Orders. `create_order` is a plain write: without an honoured idempotency key, two
 * deliveries make two orders with the same client reference, and `find_order_by_reference`
 * shows both.
 */
export const orders = defineService({
  name: 'orders',
  description: 'Orders: create, get, find by client reference, cancel.',
  state: (): OrdersState => ({}),
  tools: {
    create_order: {
      ...ORDER_TOOLS.create_order,
      run(input, ctx) {
        const orderId = ctx.id('ord');
        const record = createdOrder(input);
        ctx.state[orderId] = record;
        ctx.effect('order.created', { key: input.clientReference, data: { orderId, ...record } });
        return { orderId, ...record };
      },
      status: (clientReference, ctx) => ordersByReference(ctx.state, clientReference)[0],
    },
    get_order: {
      ...ORDER_TOOLS.get_order,
      run: ({ orderId }, ctx) => mustExistOrder(orderIn(ctx.state, orderId), orderId),
    },
    find_order_by_reference: {
      ...ORDER_TOOLS.find_order_by_reference,
      run: ({ clientReference }, ctx) => ordersByReference(ctx.state, clientReference),
    },
    cancel_order: {
      ...ORDER_TOOLS.cancel_order,
      run(input, ctx) {
        const cancellation = cancellationOf(mustExistOrder(orderIn(ctx.state, input.orderId), input.orderId));
        if (cancellation.kind === 'unchanged') return cancellation.order;
        const { orderId, record } = cancellation;
        ctx.state[orderId] = record;
        ctx.effect('order.cancelled', { key: orderId, data: { orderId } });
        return { orderId, ...record };
      },
      status: (orderId, ctx) => cancelledOnly(orderIn(ctx.state, orderId)),
    },
  },
});

/** Payments call this when a charge names an order of the same world: the charge is the ledger's effect. */
export function markOrderPaid(state: OrdersState, orderId: string): void {
  const o = state[orderId];
  if (o) state[orderId] = { ...o, status: 'paid' };
}
