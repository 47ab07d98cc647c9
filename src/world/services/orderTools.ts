import type { ToolSpec } from '../tool.js';
import { CreateOrderInput, FindOrderByReferenceInput, OrderIdInput, type OrderView } from './orderSchemas.js';
import { writeToolSpec, type WriteTool } from './writeTool.js';

/** What a backend supplies to the orders tools; names, schemas, risks and descriptions live here. */
export interface OrdersBackend {
  readonly honoursIdempotencyKeys: boolean;
  readonly createOrder: WriteTool<CreateOrderInput, OrderView>;
  readonly cancelOrder: WriteTool<OrderIdInput, OrderView>;
  getOrder(orderId: string): Promise<OrderView> | OrderView;
  findByReference(clientReference: string): Promise<OrderView[]> | OrderView[];
}

/** The orders tools, as both the in-memory and the Postgres backend expose them. */
export function orderTools(backend: OrdersBackend): readonly ToolSpec[] {
  return [createOrder(backend), getOrder(backend), findByReference(backend), cancelOrder(backend)];
}

function createOrder(backend: OrdersBackend): ToolSpec<CreateOrderInput, OrderView> {
  const definition = {
    name: 'create_order',
    description: 'Create an order. clientReference is your business id for it; sending it twice creates two orders.',
    risk: 'write',
    input: CreateOrderInput,
    canQueryStatus: true,
    businessKeyField: 'clientReference',
  } as const;
  return writeToolSpec(definition, backend.honoursIdempotencyKeys, backend.createOrder);
}

function getOrder(backend: OrdersBackend): ToolSpec<OrderIdInput, OrderView> {
  return {
    name: 'get_order',
    description: 'Get one order by its id.',
    risk: 'read',
    input: OrderIdInput,
    honoursIdempotencyKeys: false,
    canQueryStatus: false,
    run: ({ orderId }) => backend.getOrder(orderId),
  };
}

function findByReference(backend: OrdersBackend): ToolSpec<FindOrderByReferenceInput, OrderView[]> {
  return {
    name: 'find_order_by_reference',
    description: 'List every order created with this clientReference (empty if none).',
    risk: 'read',
    input: FindOrderByReferenceInput,
    honoursIdempotencyKeys: false,
    canQueryStatus: false,
    run: ({ clientReference }) => backend.findByReference(clientReference),
  };
}

function cancelOrder(backend: OrdersBackend): ToolSpec<OrderIdInput, OrderView> {
  const definition = {
    name: 'cancel_order',
    description: 'Cancel an order that is not paid. Cancelling a cancelled order changes nothing.',
    risk: 'idempotent-write',
    input: OrderIdInput,
    canQueryStatus: true,
    businessKeyField: 'orderId',
  } as const;
  return writeToolSpec(definition, backend.honoursIdempotencyKeys, backend.cancelOrder);
}
