import { isHttpError, type OperationRef, type OperationStatus } from '../../core/index.js';
import type { IdempotencyRecord } from '../idempotency.js';

/** A business failure as a status query reports it. */
export type Failure = { readonly status: number; readonly message: string };

/** The status a stored idempotency record answers with. */
export function statusOfRecord(record: IdempotencyRecord): OperationStatus {
  if (record.state === 'in_flight') return { state: 'pending' };
  if (record.result.kind === 'value') return { state: 'succeeded', value: record.result.value };
  return { state: 'failed', ...failureOf(record.result.error) };
}

/** An `HttpError` keeps its status; anything else reads as a 500. */
export function failureOf(error: unknown): Failure {
  if (isHttpError(error)) return { status: error.status, message: error.message };
  return { status: 500, message: error instanceof Error ? error.message : String(error) };
}

/** The business key a status query names: given outright, or read from the original input. */
export function businessKeyOfRef(ref: OperationRef, field: string | undefined): string | undefined {
  return ref.businessKey ?? businessKeyOf(ref.input, field);
}

/** The value of the input's business-key `field`, if it is a string. */
export function businessKeyOf(input: unknown, field: string | undefined): string | undefined {
  if (field === undefined || typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
}

/** When no record was found by business key: writes still in flight read as pending, else the last failure. */
export function statusOfBusinessOp(inFlight: number, failure: Failure | undefined): OperationStatus {
  if (inFlight > 0) return { state: 'pending' };
  if (failure) return { state: 'failed', ...failure };
  return { state: 'not_found' };
}
