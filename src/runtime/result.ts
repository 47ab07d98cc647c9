import type { ErrorKind } from '../core/index.js';

/** What the model may do next after a failed call (R12, R14). */
export type NextAction =
  'retry_later' | 'fix_arguments' | 'use_another_tool' | 'query_operation_status' | 'ask_user' | 'stop';

/** The structured error the model sees (R12): never a bare "failed", never a stack trace. */
export interface ToolErrorFeedback {
  readonly error_type: ErrorKind;
  readonly message: string;
  readonly retryable: boolean;
  readonly retry_after_ms?: number;
  readonly arguments: unknown;
  readonly attempts: number;
  readonly next_actions: readonly NextAction[];
  /** For `invalid_argument`: each bad field and what it requires (R14). */
  readonly field_errors?: readonly { readonly path: string; readonly expected: string }[];
}

/**
 * R27's unknown-result object. `retry_allowed` and `next_action` are computed by the
 * execution layer from the tool's contract; the model cannot grant itself a retry.
 */
export interface UnknownResult {
  readonly operation_id: string;
  readonly status: 'unknown';
  readonly error_code: ErrorKind;
  readonly execution_confirmed: false;
  readonly retry_allowed: boolean;
  readonly next_action: 'query_operation_status' | 'ask_user';
  readonly message: string;
}

/** One logical tool call's result, as the agent receives it. */
export type ToolResult =
  | {
      readonly kind: 'ok';
      readonly call: string;
      readonly tool: string;
      readonly attempts: number;
      readonly value: unknown;
    }
  | {
      readonly kind: 'error';
      readonly call: string;
      readonly tool: string;
      readonly attempts: number;
      readonly error: ToolErrorFeedback;
    }
  | {
      readonly kind: 'unknown';
      readonly call: string;
      readonly tool: string;
      readonly attempts: number;
      readonly unknown: UnknownResult;
    };
export type ToolResultKind = ToolResult['kind'];
