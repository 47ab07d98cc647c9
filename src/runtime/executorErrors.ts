import type { ErrorData } from '../core/index.js';

/** The errors an executor makes itself, for calls it never sends or whose answer it never had. */

/** A call to a tool the executor does not have: the names it has, so the model can pick another. */
export function noSuchTool(tool: string, names: string): ErrorData {
  return {
    kind: 'not_found',
    message: `there is no tool named "${tool}"; available tools: ${names}`,
    retryable: false,
  };
}

/** A call whose arguments fail the tool's schema (the field errors go with it, R15). */
export function argumentsMismatch(tool: string): ErrorData {
  return { kind: 'invalid_argument', message: `the arguments for ${tool} do not match its schema`, retryable: false };
}

/** The task's deadline passed before the call could be sent (R8). */
export function deadlinePassed(): ErrorData {
  return {
    kind: 'timeout',
    message: 'the task deadline passed before the call could be sent',
    retryable: false,
    code: 'EDEADLINE',
  };
}

/** An earlier Retry-After holds the tool longer than the call may wait (R9). */
export function heldByRetryAfter(tool: string, held: number): ErrorData {
  return {
    kind: 'rate_limit',
    message: `the server asked to wait ${held}ms before ${tool} is called again (Retry-After)`,
    retryable: false,
    retryAfterMs: held,
  };
}

/** What a record left `pending` by a process that died means: the answer never reached anyone (R18). */
export const DIED_WAITING: ErrorData = {
  kind: 'unknown',
  message: 'the process that sent this operation stopped before its answer was recorded',
  retryable: false,
};
