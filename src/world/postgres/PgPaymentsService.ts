import type { Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import { checkPayable } from '../services/orderRules.js';
import { chargedPayment, checkChargeAmount, mustExistPayment, refundOf, refundView } from '../services/paymentRules.js';
import {
  DEFAULT_MAX_AMOUNT_CENTS,
  type PaymentRecord,
  type PaymentStatus,
  type PaymentView,
} from '../services/paymentSchemas.js';
import type { PaymentsOptions } from '../services/payments.js';
import { paymentTools } from '../services/paymentTools.js';
import { serviceOf } from '../services/serviceOf.js';
import type { ToolSpec } from '../tool.js';
import { nextCounter } from './counters.js';
import { num, type PgDatabase, type PgQueryable } from './PgDatabase.js';
import { noSyncSnapshot } from './noSyncSnapshot.js';
import type { PgLedger } from './PgLedger.js';
import { PgOperations } from './PgOperations.js';
import { PgRecordTable } from './PgRecordTable.js';
import { PgOrdersService } from './PgOrdersService.js';

interface PaymentRow {
  payment_id: string;
  payment_reference: string;
  order_id: string | null;
  amount_cents: string;
  currency: string;
  refunded_cents: string;
  status: PaymentStatus;
}

const COLUMNS = 'payment_id, payment_reference, order_id, amount_cents, currency, refunded_cents, status';

const viewOf = (row: PaymentRow): PaymentView => ({ paymentId: row.payment_id, ...recordOf(row) });
const recordOf = (row: PaymentRow): PaymentRecord => ({
  paymentReference: row.payment_reference,
  ...(row.order_id === null ? {} : { orderId: row.order_id }),
  amountCents: num(row.amount_cents),
  currency: row.currency,
  refundedCents: num(row.refunded_cents),
  status: row.status,
});

/**
 * `PaymentsService` with its payments in Postgres. A charge naming an order of the same
 * world's Postgres orders locks that order, checks it and marks it paid in the charge's own
 * transaction. Same tools, answers, errors and effects as the in-memory service.
 */
export class PgPaymentsService implements Service {
  readonly name = 'payments';
  readonly tools: readonly ToolSpec[];
  readonly maxAmountCents: number;
  readonly #ops: PgOperations;
  readonly #rows: PgRecordTable<PaymentRow, PaymentView, PaymentRecord>;

  constructor(
    private readonly db: PgDatabase,
    readonly world: string,
    ledger: PgLedger,
    clock: Clock,
    options: PaymentsOptions = {},
  ) {
    this.#ops = new PgOperations(this.name, db, world, ledger, clock, options);
    this.#rows = new PgRecordTable(db, world, {
      table: 'faultline_payments',
      columns: COLUMNS,
      idColumn: 'payment_id',
      referenceColumn: 'payment_reference',
      idOf: (row) => row.payment_id,
      viewOf,
      recordOf,
    });
    this.maxAmountCents = options.maxAmountCents ?? DEFAULT_MAX_AMOUNT_CENTS;
    this.tools = this.#tools();
  }

  payment(paymentId: string, on: PgQueryable = this.db, lock = false): Promise<PaymentView | undefined> {
    return this.#rows.byId(paymentId, on, lock);
  }

  /** Every payment with this reference, oldest first. */
  byReference(paymentReference: string): Promise<PaymentView[]> {
    return this.#rows.byReference(paymentReference);
  }

  snapshot(): never {
    throw noSyncSnapshot(this.name);
  }

  snapshotAsync(): Promise<Record<string, PaymentRecord>> {
    return this.#rows.snapshot();
  }

  #tools(): readonly ToolSpec[] {
    return paymentTools({
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      maxAmountCents: this.maxAmountCents,
      charge: {
        run: (input, ctx, op) =>
          this.#ops.write(op.tool, input, op.businessKey, ctx, {
            check: () => checkChargeAmount(input.amountCents, this.maxAmountCents),
            commit: async (tx, effect) => {
              const orders = input.orderId === undefined ? undefined : serviceOf(ctx, 'orders', PgOrdersService);
              // Locking the order makes a charge and a cancel of it take turns.
              if (orders && input.orderId !== undefined)
                checkPayable(await orders.order(input.orderId, tx, true), input.orderId);
              const n = await nextCounter(tx, this.world, 'pay');
              const paymentId = `pay-${n}`;
              const record = chargedPayment(input);
              await tx.query(
                `INSERT INTO faultline_payments (
                   world, payment_id, n, payment_reference, order_id, amount_cents, currency, refunded_cents, status
                 )
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
                [
                  this.world,
                  paymentId,
                  n,
                  record.paymentReference,
                  record.orderId ?? null,
                  record.amountCents,
                  record.currency,
                  0,
                  record.status,
                ],
              );
              if (orders && input.orderId !== undefined) await orders.markPaid(tx, input.orderId);
              await effect('payment.charged', input.paymentReference, { paymentId, ...record });
              return { paymentId, ...record };
            },
          }),
        status: (ref, field) => this.#ops.status(ref, field, async (key) => (await this.byReference(key))[0]),
      },
      refund: {
        run: (input, ctx, op) =>
          this.#ops.write(op.tool, input, op.businessKey, ctx, {
            commit: async (tx, effect) => {
              const refund = refundOf(await this.#mustFind(input.paymentId, tx), input.amountCents);
              const { paymentId, amountCents, record } = refund;
              await tx.query(
                'UPDATE faultline_payments SET refunded_cents = $3, status = $4 WHERE world = $1 AND payment_id = $2',
                [this.world, paymentId, record.refundedCents, record.status],
              );
              const refundId = `rfd-${await nextCounter(tx, this.world, 'rfd')}`;
              await effect('payment.refunded', paymentId, { refundId, paymentId, amountCents });
              return refundView(refundId, refund);
            },
          }),
        status: (ref, field) => this.#ops.status(ref, field, () => Promise.resolve(undefined)),
      },
      getPayment: (paymentId) => this.#mustFind(paymentId),
    });
  }

  /** Inside a transaction the row is locked until it commits: two refunds take turns. */
  async #mustFind(paymentId: string, tx?: PgQueryable): Promise<PaymentView> {
    return mustExistPayment(await this.payment(paymentId, tx ?? this.db, tx !== undefined), paymentId);
  }
}
