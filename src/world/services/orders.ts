import { IdSource, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import type { ToolSpec } from '../tool.js';
import { Operations } from './Operations.js';
import { cancellationOf, cancelledOnly, createdOrder, mustExistOrder } from './orderRules.js';
import type { OrderRecord, OrderView } from './orderSchemas.js';
import { orderTools } from './orderTools.js';
import type { ServiceOptions } from './ServiceOptions.js';

export * from './orderSchemas.js';

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
    this.tools = this.#tools();
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

  #tools(): readonly ToolSpec[] {
    return orderTools({
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      createOrder: {
        run: (input, ctx, op) =>
          this.#ops.write(op.tool, input, op.businessKey, ctx, {
            commit: () => {
              const orderId = this.#ids.next('ord');
              const record = createdOrder(input);
              this.#orders.set(orderId, record);
              this.#ops.commit(ctx, 'order.created', input.clientReference, { orderId, ...record });
              return { orderId, ...record };
            },
          }),
        status: (ref, field) => this.#ops.status(ref, field, (key) => this.byReference(key)[0]),
      },
      getOrder: (orderId) => this.#mustFind(orderId),
      findByReference: (clientReference) => this.byReference(clientReference),
      cancelOrder: {
        run: (input, ctx, op) =>
          this.#ops.write(op.tool, input, op.businessKey, ctx, {
            commit: () => {
              const cancellation = cancellationOf(this.#mustFind(input.orderId));
              if (cancellation.kind === 'unchanged') return cancellation.order;
              const { orderId, record } = cancellation;
              this.#orders.set(orderId, record);
              this.#ops.commit(ctx, 'order.cancelled', orderId, { orderId });
              return { orderId, ...record };
            },
          }),
        status: (ref, field) => this.#ops.status(ref, field, (orderId) => cancelledOnly(this.order(orderId))),
      },
    });
  }

  #mustFind(orderId: string): OrderView {
    return mustExistOrder(this.order(orderId), orderId);
  }
}
