import type { ErrorData } from '../core/index.js';

/** Network failures where the request provably never reached a server (no connection, no address). */
const NEVER_SENT_CODES: readonly string[] = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
];

/** Statuses where the server may have acted before the answer went wrong. 503/529 refuse before acting. */
const UNCERTAIN_STATUSES: readonly number[] = [500, 502, 504];

/**
 * Whether the failure leaves open that the operation happened (R18): a timeout is the caller
 * giving up, not the server refusing; a reset socket or a corrupt answer may follow a commit.
 */
export function isUncertain(error: ErrorData): boolean {
  if (error.code === 'EMALFORMED') return true;
  if (error.status !== undefined) return UNCERTAIN_STATUSES.includes(error.status);
  if (error.kind === 'timeout') return !NEVER_SENT_CODES.includes(error.code ?? '');
  if (error.kind === 'network') return !NEVER_SENT_CODES.includes(error.code ?? '');
  return false;
}
