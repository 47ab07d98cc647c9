import type { ErrorData } from '../core/index.js';
import { errorFeedback } from './feedback/structured.js';
import type { NextAction, ToolErrorFeedback, ToolResult } from './result.js';

/** How one logical call ended, with what the outcome event and the audit log need. */
export interface Finished {
  readonly result: ToolResult;
  readonly error?: ErrorData;
  readonly op?: string;
  readonly raw?: unknown;
}

/** A call that ended in `error`, with the structured feedback the model reads (R2). */
export function failedCall(
  call: string,
  tool: string,
  input: unknown,
  attempts: number,
  error: ErrorData,
  extra: { fieldErrors?: ToolErrorFeedback['field_errors']; nextActions?: readonly NextAction[] } = {},
): Finished {
  return {
    result: { kind: 'error', call, tool, attempts, error: errorFeedback({ error, input, attempts, ...extra }) },
    error,
  };
}
