import type { ErrorKind, ToolContract } from '../core/index.js';
import type { OperationRecord } from './idempotency/OperationRecord.js';
import type { UnknownResult } from './result.js';

/**
 * R27's object, computed from the tool's contract and the operation record, never from
 * anything the model said. A resend is only safe when it carries the same key to a server
 * that honours keys, or when the tool is idempotent by nature.
 */
export function unknownResult(
  record: OperationRecord,
  contract: ToolContract,
  errorCode: ErrorKind,
  detail: string,
): UnknownResult {
  const retryAllowed =
    contract.risk === 'idempotent-write' || (contract.honoursIdempotencyKeys && record.idempotencyKey !== undefined);
  const nextAction = contract.canQueryStatus ? 'query_operation_status' : 'ask_user';
  const what =
    nextAction === 'query_operation_status'
      ? `Call query_operation_status with operation_id "${record.op}" before anything else; do not start a new operation.`
      : 'This tool cannot be asked for the status: tell the user the outcome is unconfirmed and let them check; do not resubmit.';
  return {
    operation_id: record.op,
    status: 'unknown',
    error_code: errorCode,
    execution_confirmed: false,
    retry_allowed: retryAllowed,
    next_action: nextAction,
    message:
      `The ${contract.name} request was sent but its outcome is not confirmed (${detail}); it ` +
      `may or may not have taken effect. ${what}`,
  };
}
