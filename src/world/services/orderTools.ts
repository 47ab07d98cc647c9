import type { ToolSpec } from '../tool.js';
import { CreateOrderInput, FindOrderByReferenceInput, OrderIdInput, type OrderView } from './orderSchemas.js';
import { writeToolSpec, type WriteTool } from './writeTool.js';

/**
 * The orders tools' contracts: names, descriptions, risks, schemas and business keys. The
 * in-memory service (declared with `defineService`) and the Postgres backend both use them,
 * so the two cannot drift apart.
 */
export const ORDER_TOOLS = {
  create_order: {
    description: 'Create an order. clientReference is your business id for it; sending it twice creates two orders.',
    risk: 'write',
    input: CreateOrderInput,
    businessKey: 'clientReference',
  },
  get_order: { description: 'Get one order by its id.', risk: 'read', input: OrderIdInput },
  find_order_by_reference: {
    description: 'List every order created with this clientReference (empty if none).',
    risk: 'read',
    input: FindOrderByReferenceInput,
  },
  cancel_order: {
    description: 'Cancel an order that is not paid. Cancelling a cancelled order changes nothing.',
    risk: 'idempotent-write',
    input: OrderIdInput,
    businessKey: 'orderId',
  },
} as const;

/** What a database backend supplies to the orders tools. */
export interface OrdersBackend {
  readonly honoursIdempotencyKeys: boolean;
  readonly createOrder: WriteTool<CreateOrderInput, OrderView>;
  readonly cancelOrder: WriteTool<OrderIdInput, OrderView>;
  getOrder(orderId: string): Promise<OrderView> | OrderView;
  findByReference(clientReference: string): Promise<OrderView[]> | OrderView[];
}

/** The orders tools over a database backend (the in-memory service is declared in `orders.ts`). */
export function orderTools(backend: OrdersBackend): readonly ToolSpec[] {
  const { create_order, get_order, find_order_by_reference, cancel_order } = ORDER_TOOLS;
  const read = <I>(
    name: string,
    contract: { description: string; risk: 'read'; input: ToolSpec<I>['input'] },
    run: ToolSpec<I>['run'],
  ): ToolSpec<I> => ({
    name,
    ...contract,
    honoursIdempotencyKeys: false,
    canQueryStatus: false,
    run,
  });
  return [
    writeToolSpec(
      { name: 'create_order', ...create_order, canQueryStatus: true, businessKeyField: create_order.businessKey },
      backend.honoursIdempotencyKeys,
      backend.createOrder,
    ),
    read('get_order', get_order, ({ orderId }) => backend.getOrder(orderId)),
    read('find_order_by_reference', find_order_by_reference, ({ clientReference }) =>
      backend.findByReference(clientReference),
    ),
    writeToolSpec(
      { name: 'cancel_order', ...cancel_order, canQueryStatus: true, businessKeyField: cancel_order.businessKey },
      backend.honoursIdempotencyKeys,
      backend.cancelOrder,
    ),
  ] as readonly ToolSpec[];
}
