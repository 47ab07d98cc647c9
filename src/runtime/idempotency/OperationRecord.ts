import type { ErrorData } from '../../core/index.js';

/** Where an operation stands as far as the caller knows (R20, R22). */
export type OperationRecordState = 'pending' | 'unknown' | 'succeeded' | 'failed';

/**
 * A write the execution layer is about to submit, recorded before the first submission
 * (R22): the stable parameters and the idempotency key travel with it through retries,
 * an unknown outcome and reconciliation.
 */
export interface OperationRecord {
  readonly op: string;
  readonly call: string;
  readonly tool: string;
  readonly input: unknown;
  readonly idempotencyKey?: string;
  readonly businessKey?: string;
  readonly state: OperationRecordState;
  /** The tool's answer once `succeeded`. */
  readonly result?: unknown;
  /** The last error seen, once `unknown` or `failed`. */
  readonly error?: ErrorData;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** The fields that change over an operation's life. */
export type OperationPatch = Partial<Pick<OperationRecord, 'state' | 'result' | 'error' | 'idempotencyKey'>>;
