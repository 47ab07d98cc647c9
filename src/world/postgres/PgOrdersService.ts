import { FaultlineError, FaultlineErrorCode, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import { notFound, stateConflict } from '../services/httpErrors.js';
import {
  CreateOrderInput,
  FindOrderByReferenceInput,
  OrderIdInput,
  type OrderRecord,
  type OrderStatus,
  type OrdersOptions,
  type OrderView,
} from '../services/orders.js';
import type { ToolSpec } from '../tool.js';
import { nextCounter } from './counters.js';
import { num, type PgDatabase, type PgQueryable } from './PgDatabase.js';
import type { PgLedger } from './PgLedger.js';
import { PgOperations } from './PgOperations.js';

interface OrderRow {
  order_id: string;
  client_reference: string;
  item: string;
  quantity: number;
  amount_cents: string;
  status: OrderStatus;
}

const COLUMNS = 'order_id, client_reference, item, quantity, amount_cents, status';

const viewOf = (row: OrderRow): OrderView => ({ orderId: row.order_id, ...recordOf(row) });
const recordOf = (row: OrderRow): OrderRecord => ({
  clientReference: row.client_reference,
  item: row.item,
  quantity: row.quantity,
  amountCents: num(row.amount_cents),
  status: row.status,
});

/**
 * `OrdersService` with its orders in Postgres: the same tools, schemas, answers, errors and
 * effects, so a scenario judged on either backend gets the same verdicts.
 */
export class PgOrdersService implements Service {
  readonly name = 'orders';
  readonly tools: readonly ToolSpec[];
  readonly #ops: PgOperations;

  constructor(
    private readonly db: PgDatabase,
    readonly world: string,
    ledger: PgLedger,
    clock: Clock,
    options: OrdersOptions = {},
  ) {
    this.#ops = new PgOperations(this.name, db, world, ledger, clock, options);
    this.tools = [this.#createOrder(), this.#getOrder(), this.#findByReference(), this.#cancelOrder()];
  }

  async order(orderId: string, on: PgQueryable = this.db, lock = false): Promise<OrderView | undefined> {
    const rows = await on.query<OrderRow>(
      `SELECT ${COLUMNS} FROM faultline_orders WHERE world = $1 AND order_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [this.world, orderId],
    );
    return rows[0] && viewOf(rows[0]);
  }

  /** Every order with this client reference, oldest first. */
  async byReference(clientReference: string): Promise<OrderView[]> {
    const rows = await this.db.query<OrderRow>(
      `SELECT ${COLUMNS} FROM faultline_orders WHERE world = $1 AND client_reference = $2 ORDER BY n`,
      [this.world, clientReference],
    );
    return rows.map(viewOf);
  }

  /** Payments call this inside their charge's transaction, after locking the order. */
  async markPaid(tx: PgQueryable, orderId: string): Promise<void> {
    await tx.query(`UPDATE faultline_orders SET status = 'paid' WHERE world = $1 AND order_id = $2`, [this.world, orderId]);
  }

  snapshot(): never {
    throw new FaultlineError(FaultlineErrorCode.Internal, 'the Postgres orders service has no synchronous snapshot: use World.snapshotAsync()');
  }

  async snapshotAsync(): Promise<Record<string, OrderRecord>> {
    const rows = await this.db.query<OrderRow>(`SELECT ${COLUMNS} FROM faultline_orders WHERE world = $1 ORDER BY n`, [this.world]);
    return Object.fromEntries(rows.map((r) => [r.order_id, recordOf(r)]));
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
          commit: async (tx, effect) => {
            const n = await nextCounter(tx, this.world, 'ord');
            const orderId = `ord-${n}`;
            const record: OrderRecord = { ...input, status: 'created' };
            await tx.query(
              `INSERT INTO faultline_orders (world, order_id, n, client_reference, item, quantity, amount_cents, status)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
              [this.world, orderId, n, record.clientReference, record.item, record.quantity, record.amountCents, record.status],
            );
            await effect('order.created', input.clientReference, { orderId, ...record });
            return { orderId, ...record };
          },
        }),
      status: (ref) => this.#ops.status(ref, 'clientReference', async (key) => (await this.byReference(key))[0]),
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
          commit: async (tx, effect) => {
            const order = await this.#mustFind(input.orderId, tx);
            if (order.status === 'cancelled') return order;
            if (order.status === 'paid') {
              throw stateConflict('order_paid', `order ${input.orderId} is paid and cannot be cancelled; refund the payment instead`);
            }
            const { orderId, ...rest } = order;
            const record: OrderRecord = { ...rest, status: 'cancelled' };
            await tx.query(`UPDATE faultline_orders SET status = 'cancelled' WHERE world = $1 AND order_id = $2`, [this.world, orderId]);
            await effect('order.cancelled', orderId, { orderId });
            return { orderId, ...record };
          },
        }),
      status: (ref) =>
        this.#ops.status(ref, 'orderId', async (orderId) => {
          const order = await this.order(orderId);
          return order?.status === 'cancelled' ? order : undefined;
        }),
    };
  }

  /** Inside a transaction the row is locked until it commits, so two writers take turns. */
  async #mustFind(orderId: string, tx?: PgQueryable): Promise<OrderView> {
    const order = await this.order(orderId, tx ?? this.db, tx !== undefined);
    if (!order) throw notFound('orderId', `no order with id "${orderId}"`);
    return order;
  }
}
