import type { ErrorData, ErrorKind } from '../../core/index.js';
import type { NextAction, ToolErrorFeedback, ToolResult } from '../result.js';

/**
 * What the model may do after each kind of error (R12, R14). Permission and quota stop the
 * action and go to a person: the model must not switch accounts or widen its rights.
 */
export const NEXT_ACTIONS: Readonly<Record<ErrorKind, readonly NextAction[]>> = {
  timeout: ['retry_later', 'ask_user'],
  network: ['retry_later', 'ask_user'],
  rate_limit: ['retry_later'],
  unavailable: ['retry_later', 'use_another_tool', 'ask_user'],
  quota_exceeded: ['ask_user', 'stop'],
  permission_denied: ['ask_user', 'stop'],
  invalid_argument: ['fix_arguments'],
  not_found: ['fix_arguments', 'use_another_tool'],
  conflict: ['use_another_tool', 'ask_user'],
  internal: ['use_another_tool', 'ask_user'],
  unknown: ['ask_user'],
};

export interface ErrorFeedbackInput {
  readonly error: ErrorData;
  readonly input: unknown;
  readonly attempts: number;
  readonly fieldErrors?: ToolErrorFeedback['field_errors'];
  /** Overrides the kind's default next actions (an unknown tool: use another). */
  readonly nextActions?: readonly NextAction[];
}

/** The R12 payload for a failed call: type, message, retryability, wait, arguments, attempts, next actions. */
export function errorFeedback({
  error,
  input,
  attempts,
  fieldErrors,
  nextActions,
}: ErrorFeedbackInput): ToolErrorFeedback {
  return {
    error_type: error.kind,
    message: error.message,
    retryable: error.retryable,
    ...(error.retryAfterMs !== undefined && { retry_after_ms: error.retryAfterMs }),
    arguments: input,
    attempts,
    next_actions: nextActions ?? NEXT_ACTIONS[error.kind],
    ...(fieldErrors !== undefined && fieldErrors.length > 0 && { field_errors: fieldErrors }),
  };
}

/** The result as one JSON object (MCP's `structuredContent` must be an object, so plain values are wrapped). */
export function structuredPayload(result: ToolResult): Record<string, unknown> {
  switch (result.kind) {
    case 'ok': {
      const v = result.value;
      return typeof v === 'object' && v !== null && !Array.isArray(v)
        ? (v as Record<string, unknown>)
        : { result: v ?? null };
    }
    case 'error':
      return { error: result.error };
    case 'unknown':
      return { ...result.unknown };
  }
}

function errorHeadline(e: ToolErrorFeedback): string {
  const wait = e.retry_after_ms === undefined ? '' : ` Wait at least ${e.retry_after_ms} ms before retrying.`;
  const retry = e.retryable ? 'Retrying later may help.' : 'Retrying will not help.';
  return (
    `Error [${e.error_type}] after ${e.attempts} attempt(s): ${e.message.replace(/[.\s]+$/, '')}. ` +
    `${retry}${wait} Next: ${e.next_actions.join(', ')}.`
  );
}

/**
 * The text the model reads. Errors open with a plain-language headline, so a protocol
 * without an error flag (OpenAI) still says that the call failed (R16).
 */
export function describeResult(result: ToolResult): string {
  switch (result.kind) {
    case 'ok':
      return typeof result.value === 'string' ? result.value : (JSON.stringify(result.value) ?? 'null');
    case 'error':
      return `${errorHeadline(result.error)}\n${JSON.stringify(structuredPayload(result))}`;
    case 'unknown': {
      const u = result.unknown;
      return `Outcome unknown [${u.error_code}] for operation ${u.operation_id}: ${u.message}\n${JSON.stringify(u)}`;
    }
  }
}
