import {
  HttpError,
  openTaskField,
  type Clock,
  type ErrorData,
  type History,
  type IdSource,
  type OperationRef,
  type ToolContract,
  type Transport,
} from '../core/index.js';
import { classifyError } from './classify.js';
import type { RetryConfig } from './config.js';
import { contractNamed } from './contractNamed.js';
import { failedCall, type Finished } from './Finished.js';
import type { OperationRecord } from './idempotency/OperationRecord.js';
import type { OperationBook } from './OperationBook.js';
import type { OperationStore } from './idempotency/OperationStore.js';
import { QUERY_OPERATION_STATUS } from './queryOperationStatusTool.js';
import { readStatus } from './readStatus.js';
import type { Deadline } from './retry/Deadline.js';
import { sendAttempt } from './sendAttempt.js';
import type { SignalPool } from './SignalPool.js';
import { unknownResult } from './unknownResult.js';

/** What a reconciler shares with its executor: the configuration, the history, and the wire it sends on. */
export interface ReconcilerWire {
  readonly config: RetryConfig;
  readonly history: History;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly transport: Transport;
}

/** A status query's answer, as reconciliation reads it (R21). */
type StatusAnswer =
  | { readonly found: 'succeeded'; readonly value: unknown }
  | { readonly found: 'failed'; readonly error: ErrorData }
  | { readonly found: 'pending' | 'not_found' }
  | { readonly found: 'error'; readonly error: ErrorData };

const FOUND_TEXT: Readonly<Record<'pending' | 'not_found' | 'error', string>> = {
  pending: 'the service reports it still pending',
  not_found: 'the service has no record of it yet, which does not prove it never arrived',
  error: 'the status query failed too',
};

/**
 * Settles unknown outcomes by asking the service (R21), never by resending: after an uncertain failure of a write,
 * and for the model's own `query_operation_status` calls.
 */
export class Reconciler {
  readonly #o: ReconcilerWire;
  readonly #deadline: Deadline;
  readonly #signals: SignalPool;
  readonly #book: OperationBook;
  readonly #store: OperationStore;
  readonly #tools: readonly ToolContract[];

  constructor(
    wire: ReconcilerWire,
    deadline: Deadline,
    signals: SignalPool,
    book: OperationBook,
    store: OperationStore,
    tools: readonly ToolContract[],
  ) {
    this.#o = wire;
    this.#deadline = deadline;
    this.#signals = signals;
    this.#book = book;
    this.#store = store;
    this.#tools = tools;
  }

  /** An uncertain failure of a write (R18): mark it unknown, reconcile if allowed (R21), never guess. */
  async unresolved(
    call: string,
    contract: ToolContract,
    record: OperationRecord,
    error: ErrorData,
    attempts: number,
    raw: unknown,
  ): Promise<Finished> {
    const tool = contract.name;
    const book = this.#book;
    const unknown = await book.settle(record, call, { state: 'unknown', error });
    let detail = `${error.message}, after ${attempts} attempt(s)`;
    if (this.#o.config.reconcile && contract.canQueryStatus) {
      const answer = await this.#askStatus(call, contract, unknown);
      this.#recordReconcile(call, record.op, answer);
      switch (answer.found) {
        case 'succeeded':
          await book.settle(unknown, call, { state: 'succeeded', result: answer.value });
          return { result: { kind: 'ok', call, tool, attempts, value: answer.value }, op: record.op };
        case 'failed':
          await book.settle(unknown, call, { state: 'failed', error: answer.error });
          return { ...failedCall(call, tool, record.input, attempts, answer.error), op: record.op, raw };
        default:
          detail += `; ${FOUND_TEXT[answer.found]}`;
      }
    }
    return {
      result: { kind: 'unknown', call, tool, attempts, unknown: unknownResult(unknown, contract, error.kind, detail) },
      error,
      op: record.op,
      raw,
    };
  }

  /** `query_operation_status`: reads the record, asks the service, and maps the answer like reconciliation. */
  async queryTool(call: string, input: unknown, opId: string): Promise<Finished> {
    const tool = QUERY_OPERATION_STATUS;
    const record = await this.#store.get(opId);
    const contract = record && contractNamed(this.#tools, record.tool);
    if (!record || !contract) {
      const error: ErrorData = {
        kind: 'not_found',
        message: `there is no operation with id "${opId}"`,
        retryable: false,
      };
      return failedCall(call, tool, input, 0, error, { nextActions: ['fix_arguments', 'ask_user'] });
    }
    const op = record.op;
    // A definite result is already known: asking again adds load and nothing else.
    if (record.state === 'succeeded') return statusSucceeded(call, op, record.result, 0);
    if (record.state === 'failed' && record.error) return statusFailed(call, op, record.error, 0);
    const error = record.error ?? { kind: 'unknown', message: 'no definite answer was received', retryable: false };
    if (!contract.canQueryStatus) return stillUnknown(call, record, contract, error, 0, error.message);
    const answer = await this.#askStatus(call, contract, record);
    this.#recordReconcile(call, op, answer);
    switch (answer.found) {
      case 'succeeded':
        await this.#book.settle(record, call, { state: 'succeeded', result: answer.value });
        return statusSucceeded(call, op, answer.value, 1);
      case 'failed':
        await this.#book.settle(record, call, { state: 'failed', error: answer.error });
        return statusFailed(call, op, answer.error, 1);
      default:
        return stillUnknown(call, record, contract, error, 1, `${error.message}; ${FOUND_TEXT[answer.found]}`);
    }
  }

  #recordReconcile(call: string, op: string, answer: StatusAnswer): void {
    this.#o.history.record({
      type: 'reconcile',
      call,
      op,
      found: answer.found,
      ...openTaskField(answer.found === 'succeeded' ? answer.value : undefined),
    });
  }

  /** One status query on the wire (R21). Not retried: an unanswered query leaves the outcome unknown. */
  async #askStatus(call: string, contract: ToolContract, record: OperationRecord): Promise<StatusAnswer> {
    const { history, clock, ids, transport } = this.#o;
    const request = ids.next('req');
    const withKey = record.idempotencyKey === undefined ? {} : { idempotencyKey: record.idempotencyKey };
    const ref: OperationRef = {
      op: record.op,
      input: record.input,
      ...withKey,
      ...(record.businessKey !== undefined && { businessKey: record.businessKey }),
    };
    history.record({
      type: 'attempt',
      call,
      attempt: 1,
      tool: contract.name,
      purpose: 'status',
      request,
      op: record.op,
      ...withKey,
    });
    const sent = await sendAttempt(
      transport,
      clock,
      { request, tool: contract.name, purpose: 'status', input: ref, call, attempt: 1, ...withKey },
      this.#deadline.attemptTimeoutMs(this.#o.config.perCallTimeoutMs),
      this.#signals,
    );
    const status = sent.kind === 'ok' ? readStatus(sent.value) : undefined;
    if (!status) {
      const error =
        sent.kind === 'error'
          ? classifyError(sent.error, clock.now())
          : {
              kind: 'unknown' as const,
              message: 'the status answer was not an operation status',
              retryable: false,
              code: 'EMALFORMED',
            };
      history.record({ type: 'attempt_end', call, attempt: 1, purpose: 'status', request, result: 'error', error });
      return { found: 'error', error };
    }
    history.record({ type: 'attempt_end', call, attempt: 1, purpose: 'status', request, result: 'ok' });
    switch (status.state) {
      case 'succeeded':
        return { found: 'succeeded', value: status.value };
      case 'failed': {
        const error = classifyError(new HttpError(status.status, status.message), clock.now());
        return { found: 'failed', error };
      }
      default:
        return { found: status.state };
    }
  }
}

/** `query_operation_status`'s answer that the operation succeeded, with its value. */
function statusSucceeded(call: string, op: string, value: unknown, attempts: number): Finished {
  return definiteStatus(call, op, attempts, { operation_id: op, status: 'succeeded', value });
}

/** The query succeeded in learning that the operation failed: that is an answer, not an error of the query. */
function statusFailed(call: string, op: string, error: ErrorData, attempts: number): Finished {
  return definiteStatus(call, op, attempts, {
    operation_id: op,
    status: 'failed',
    error_type: error.kind,
    message: error.message,
  });
}

/** A definite answer of `query_operation_status` (`value`: what the operation came to) is an ok result of the query. */
function definiteStatus(call: string, op: string, attempts: number, value: unknown): Finished {
  return { result: { kind: 'ok', call, tool: QUERY_OPERATION_STATUS, attempts, value }, op };
}

/** No definite answer yet: the query's result says the outcome is still unknown, and why. */
function stillUnknown(
  call: string,
  record: OperationRecord,
  contract: ToolContract,
  error: ErrorData,
  attempts: number,
  detail: string,
): Finished {
  return {
    result: {
      kind: 'unknown',
      call,
      tool: QUERY_OPERATION_STATUS,
      attempts,
      unknown: unknownResult(record, contract, error.kind, detail),
    },
    error,
    op: record.op,
  };
}
