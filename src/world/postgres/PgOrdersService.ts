import type { Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import { cancellationOf, cancelledOnly, createdOrder, mustExistOrder } from '../services/orderRules.js';
import type { OrderRecord, OrderStatus, OrdersOptions, OrderView } from '../services/orders.js';
import { orderTools } from '../services/orderTools.js';
import type { ToolSpec } from '../tool.js';
import { nextCounter } from './counters.js';
import { num, type PgDatabase, type PgQueryable } from './PgDatabase.js';
import { noSyncSnapshot } from './noSyncSnapshot.js';
import type { PgLedger } from './PgLedger.js';
import { PgOperations } from './PgOperations.js';
import { PgRecordTable } from './PgRecordTable.js';

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
  readonly #rows: PgRecordTable<OrderRow, OrderView, OrderRecord>;

  constructor(
    private readonly db: PgDatabase,
    readonly world: string,
    ledger: PgLedger,
    clock: Clock,
    options: OrdersOptions = {},
  ) {
    this.#ops = new PgOperations(this.name, db, world, ledger, clock, options);
    this.#rows = new PgRecordTable(db, world, {
      table: 'faultline_orders',
      columns: COLUMNS,
      idColumn: 'order_id',
      referenceColumn: 'client_reference',
      idOf: (row) => row.order_id,
      viewOf,
      recordOf,
    });
    this.tools = this.#tools();
  }

  order(orderId: string, on: PgQueryable = this.db, lock = false): Promise<OrderView | undefined> {
    return this.#rows.byId(orderId, on, lock);
  }

  /** Every order with this client reference, oldest first. */
  byReference(clientReference: string): Promise<OrderView[]> {
    return this.#rows.byReference(clientReference);
  }

  /** Payments call this inside their charge's transaction, after locking the order. */
  async markPaid(tx: PgQueryable, orderId: string): Promise<void> {
    await tx.query(`UPDATE faultline_orders SET status = 'paid' WHERE world = $1 AND order_id = $2`, [
      this.world,
      orderId,
    ]);
  }

  snapshot(): never {
    throw noSyncSnapshot(this.name);
  }

  snapshotAsync(): Promise<Record<string, OrderRecord>> {
    return this.#rows.snapshot();
  }

  #tools(): readonly ToolSpec[] {
    return orderTools({
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      createOrder: {
        run: (input, ctx, op) =>
          this.#ops.write(op.tool, input, op.businessKey, ctx, {
            commit: async (tx, effect) => {
              const n = await nextCounter(tx, this.world, 'ord');
              const orderId = `ord-${n}`;
              const record = createdOrder(input);
              await tx.query(
                `INSERT INTO faultline_orders (world, order_id, n, client_reference, item, quantity, amount_cents, status)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
                [
                  this.world,
                  orderId,
                  n,
                  record.clientReference,
                  record.item,
                  record.quantity,
                  record.amountCents,
                  record.status,
                ],
              );
              await effect('order.created', input.clientReference, { orderId, ...record });
              return { orderId, ...record };
            },
          }),
        status: (ref, field) => this.#ops.status(ref, field, async (key) => (await this.byReference(key))[0]),
      },
      getOrder: (orderId) => this.#mustFind(orderId),
      findByReference: (clientReference) => this.byReference(clientReference),
      cancelOrder: {
        run: (input, ctx, op) =>
          this.#ops.write(op.tool, input, op.businessKey, ctx, {
            commit: async (tx, effect) => {
              const cancellation = cancellationOf(await this.#mustFind(input.orderId, tx));
              if (cancellation.kind === 'unchanged') return cancellation.order;
              const { orderId, record } = cancellation;
              await tx.query(`UPDATE faultline_orders SET status = 'cancelled' WHERE world = $1 AND order_id = $2`, [
                this.world,
                orderId,
              ]);
              await effect('order.cancelled', orderId, { orderId });
              return { orderId, ...record };
            },
          }),
        status: (ref, field) =>
          this.#ops.status(ref, field, async (orderId) => cancelledOnly(await this.order(orderId))),
      },
    });
  }

  /** Inside a transaction the row is locked until it commits, so two writers take turns. */
  async #mustFind(orderId: string, tx?: PgQueryable): Promise<OrderView> {
    return mustExistOrder(await this.order(orderId, tx ?? this.db, tx !== undefined), orderId);
  }
}
