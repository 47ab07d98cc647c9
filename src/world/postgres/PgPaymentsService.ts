import { FaultlineError, FaultlineErrorCode, type Clock } from '../../core/index.js';
import type { Service } from '../Service.js';
import { invalidRequest, notFound, stateConflict } from '../services/httpErrors.js';
import {
  ChargePaymentInput,
  DEFAULT_MAX_AMOUNT_CENTS,
  PaymentIdInput,
  RefundPaymentInput,
  type PaymentRecord,
  type PaymentsOptions,
  type PaymentStatus,
  type PaymentView,
  type RefundView,
} from '../services/payments.js';
import type { ToolContext, ToolSpec } from '../tool.js';
import { nextCounter } from './counters.js';
import { num, type PgDatabase, type PgQueryable } from './PgDatabase.js';
import type { PgLedger } from './PgLedger.js';
import { PgOperations } from './PgOperations.js';
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

  constructor(
    private readonly db: PgDatabase,
    readonly world: string,
    ledger: PgLedger,
    clock: Clock,
    options: PaymentsOptions = {},
  ) {
    this.#ops = new PgOperations(this.name, db, world, ledger, clock, options);
    this.maxAmountCents = options.maxAmountCents ?? DEFAULT_MAX_AMOUNT_CENTS;
    this.tools = [this.#charge(), this.#refund(), this.#get()];
  }

  async payment(paymentId: string, on: PgQueryable = this.db, lock = false): Promise<PaymentView | undefined> {
    const rows = await on.query<PaymentRow>(
      `SELECT ${COLUMNS} FROM faultline_payments WHERE world = $1 AND payment_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [this.world, paymentId],
    );
    return rows[0] && viewOf(rows[0]);
  }

  /** Every payment with this reference, oldest first. */
  async byReference(paymentReference: string): Promise<PaymentView[]> {
    const rows = await this.db.query<PaymentRow>(
      `SELECT ${COLUMNS} FROM faultline_payments WHERE world = $1 AND payment_reference = $2 ORDER BY n`,
      [this.world, paymentReference],
    );
    return rows.map(viewOf);
  }

  snapshot(): never {
    throw new FaultlineError(FaultlineErrorCode.Internal, 'the Postgres payments service has no synchronous snapshot: use World.snapshotAsync()');
  }

  async snapshotAsync(): Promise<Record<string, PaymentRecord>> {
    const rows = await this.db.query<PaymentRow>(`SELECT ${COLUMNS} FROM faultline_payments WHERE world = $1 ORDER BY n`, [this.world]);
    return Object.fromEntries(rows.map((r) => [r.payment_id, recordOf(r)]));
  }

  #charge(): ToolSpec<ChargePaymentInput, PaymentView> {
    return {
      name: 'charge_payment',
      description: `Charge a payment (at most ${this.maxAmountCents} cents). paymentReference is your business id for it; orderId, if given, marks that order paid.`,
      risk: 'write',
      input: ChargePaymentInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      canQueryStatus: true,
      businessKeyField: 'paymentReference',
      run: (input, ctx) =>
        this.#ops.write('charge_payment', input, input.paymentReference, ctx, {
          check: () => {
            if (input.amountCents > this.maxAmountCents) {
              throw invalidRequest('amountCents', `amountCents must be at most ${this.maxAmountCents}`, 'amount_too_large');
            }
          },
          commit: async (tx, effect) => {
            const orders = input.orderId === undefined ? undefined : ordersOf(ctx);
            if (orders && input.orderId !== undefined) await checkPayable(tx, orders, input.orderId);
            const n = await nextCounter(tx, this.world, 'pay');
            const paymentId = `pay-${n}`;
            const record: PaymentRecord = {
              paymentReference: input.paymentReference,
              ...(input.orderId === undefined ? {} : { orderId: input.orderId }),
              amountCents: input.amountCents,
              currency: input.currency.toUpperCase(),
              refundedCents: 0,
              status: 'charged',
            };
            await tx.query(
              `INSERT INTO faultline_payments (world, payment_id, n, payment_reference, order_id, amount_cents, currency, refunded_cents, status)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
              [this.world, paymentId, n, record.paymentReference, record.orderId ?? null, record.amountCents, record.currency, 0, record.status],
            );
            if (orders && input.orderId !== undefined) await orders.markPaid(tx, input.orderId);
            await effect('payment.charged', input.paymentReference, { paymentId, ...record });
            return { paymentId, ...record };
          },
        }),
      status: (ref) => this.#ops.status(ref, 'paymentReference', async (key) => (await this.byReference(key))[0]),
    };
  }

  #refund(): ToolSpec<RefundPaymentInput, RefundView> {
    return {
      name: 'refund_payment',
      description: 'Refund a payment, in full or amountCents of it. Each delivery refunds again.',
      risk: 'write',
      input: RefundPaymentInput,
      honoursIdempotencyKeys: this.#ops.honoursIdempotencyKeys,
      // Refunds have no business id of their own: only an honoured idempotency key finds one.
      canQueryStatus: this.#ops.honoursIdempotencyKeys,
      run: (input, ctx) =>
        this.#ops.write('refund_payment', input, undefined, ctx, {
          commit: async (tx, effect) => {
            const payment = await this.#mustFind(input.paymentId, tx);
            const remaining = payment.amountCents - payment.refundedCents;
            const amountCents = input.amountCents ?? remaining;
            if (remaining === 0) throw stateConflict('payment_refunded', `payment ${input.paymentId} is already fully refunded`);
            if (amountCents > remaining) {
              throw invalidRequest('amountCents', `amountCents must be at most ${remaining}, the amount not yet refunded`, 'amount_too_large');
            }
            const { paymentId, ...rest } = payment;
            const refundedCents = payment.refundedCents + amountCents;
            const record: PaymentRecord = {
              ...rest,
              refundedCents,
              status: refundedCents === payment.amountCents ? 'refunded' : 'partially_refunded',
            };
            await tx.query('UPDATE faultline_payments SET refunded_cents = $3, status = $4 WHERE world = $1 AND payment_id = $2', [
              this.world,
              paymentId,
              refundedCents,
              record.status,
            ]);
            const refundId = `rfd-${await nextCounter(tx, this.world, 'rfd')}`;
            await effect('payment.refunded', paymentId, { refundId, paymentId, amountCents });
            return { refundId, paymentId, amountCents, payment: { paymentId, ...record } };
          },
        }),
      status: (ref) => this.#ops.status(ref, undefined, () => Promise.resolve(undefined)),
    };
  }

  #get(): ToolSpec<PaymentIdInput, PaymentView> {
    return {
      name: 'get_payment',
      description: 'Get one payment by its id.',
      risk: 'read',
      input: PaymentIdInput,
      honoursIdempotencyKeys: false,
      canQueryStatus: false,
      run: ({ paymentId }) => this.#mustFind(paymentId),
    };
  }

  /** Inside a transaction the row is locked until it commits: two refunds take turns. */
  async #mustFind(paymentId: string, tx?: PgQueryable): Promise<PaymentView> {
    const payment = await this.payment(paymentId, tx ?? this.db, tx !== undefined);
    if (!payment) throw notFound('paymentId', `no payment with id "${paymentId}"`);
    return payment;
  }
}

/** The world's Postgres orders, if it has them: payments work alone too. */
function ordersOf(ctx: ToolContext): PgOrdersService | undefined {
  const orders = ctx.world.services.find((s) => s.name === 'orders');
  return orders instanceof PgOrdersService ? orders : undefined;
}

async function checkPayable(tx: PgQueryable, orders: PgOrdersService, orderId: string): Promise<void> {
  const order = await orders.order(orderId, tx, true);
  if (!order) throw notFound('orderId', `no order with id "${orderId}"`);
  if (order.status === 'cancelled') throw stateConflict('order_cancelled', `order ${orderId} is cancelled and cannot be paid`);
}
