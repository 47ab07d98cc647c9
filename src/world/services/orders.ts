import { z } from 'zod';
import { IdSource, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import type { ToolSpec } from '../tool.js';
import { notFound, stateConflict } from './httpErrors.js';
import { Operations } from './Operations.js';
import type { ServiceOptions } from './ServiceOptions.js';

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

export type OrdersOptions = ServiceOptions;

/**
 * Orders. `create_order` is a plain write: without an honoured idempotency key, two
 * deliveries make two orders with the same client reference, and `find_order_by_reference`
 * shows both.
 */
export class OrdersService implements Service {
  readonly name = 'orders';
  readonly tools: readonly ToolSpec[];
  readonly #orders = new Map<string, OrderRecord>();
  readonly #ids = new IdSource();
  readonly #ops: Operations;

  constructor(clock: Clock, options: OrdersOptions = {}) {
    this.#ops = new Operations(this.name, clock, options);
    this.tools = [this.#createOrder(), this.#getOrder(), this.#findByReference(), this.#cancelOrder()];
  }

  order(orderId: string): OrderView | undefined {
    const o = this.#orders.get(orderId);
    return o && { orderId, ...o };
  }

  /** Every order with this client reference, oldest first. */
  byReference(clientReference: string): OrderView[] {
    return [...this.#orders]
      .filter(([, o]) => o.clientReference === clientReference)
      .map(([orderId, o]) => ({ orderId, ...o }));
  }

  /** Payments call this when a charge names the order; the charge is the ledger's effect. */
  markPaid(orderId: string): void {
    const o = this.#orders.get(orderId);
    if (o) this.#orders.set(orderId, { ...o, status: 'paid' });
  }

  snapshot(): Record<string, OrderRecord> {
    return Object.fromEntries(this.#orders);
  }

  #createOrder(): ToolSpec<CreateOrderInput, OrderView> {
    return {
      name: 'create_order',
      description: 'Create an order. clientReference is your business id for it; sending it twice creates two orders.',
      risk: 'write',
      input: CreateOrderInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      canQueryStatus: true,
      businessKeyField: 'clientReference',
      run: (input, ctx) =>
        this.#ops.write('create_order', input, input.clientReference, ctx, {
          commit: () => {
            const orderId = this.#ids.next('ord');
            const record: OrderRecord = { ...input, status: 'created' };
            this.#orders.set(orderId, record);
            this.#ops.commit(ctx, 'order.created', input.clientReference, { orderId, ...record });
            return { orderId, ...record };
          },
        }),
      status: (ref) => this.#ops.status(ref, 'clientReference', (key) => this.byReference(key)[0]),
    };
  }

  #getOrder(): ToolSpec<OrderIdInput, OrderView> {
    return {
      name: 'get_order',
      description: 'Get one order by its id.',
      risk: 'read',
      input: OrderIdInput,
      honoursIdempotencyKeys: false,
      canQueryStatus: false,
      run: ({ orderId }) => this.#mustFind(orderId),
    };
  }

  #findByReference(): ToolSpec<FindOrderByReferenceInput, OrderView[]> {
    return {
      name: 'find_order_by_reference',
      description: 'List every order created with this clientReference (empty if none).',
      risk: 'read',
      input: FindOrderByReferenceInput,
      honoursIdempotencyKeys: false,
      canQueryStatus: false,
      run: ({ clientReference }) => this.byReference(clientReference),
    };
  }

  #cancelOrder(): ToolSpec<OrderIdInput, OrderView> {
    return {
      name: 'cancel_order',
      description: 'Cancel an order that is not paid. Cancelling a cancelled order changes nothing.',
      risk: 'idempotent-write',
      input: OrderIdInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      canQueryStatus: true,
      businessKeyField: 'orderId',
      run: (input, ctx) =>
        this.#ops.write('cancel_order', input, input.orderId, ctx, {
          commit: () => {
            const order = this.#mustFind(input.orderId);
            if (order.status === 'cancelled') return order;
            if (order.status === 'paid') {
              throw stateConflict('order_paid', `order ${input.orderId} is paid and cannot be cancelled; refund the payment instead`);
            }
            const { orderId, ...rest } = order;
            const record: OrderRecord = { ...rest, status: 'cancelled' };
            this.#orders.set(orderId, record);
            this.#ops.commit(ctx, 'order.cancelled', orderId, { orderId });
            return { orderId, ...record };
          },
        }),
      status: (ref) =>
        this.#ops.status(ref, 'orderId', (orderId) => {
          const order = this.order(orderId);
          return order?.status === 'cancelled' ? order : undefined;
        }),
    };
  }

  #mustFind(orderId: string): OrderView {
    const order = this.order(orderId);
    if (!order) throw notFound('orderId', `no order with id "${orderId}"`);
    return order;
  }
}
