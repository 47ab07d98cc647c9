import type { ToolResult } from './result.js';

/** What an answer from `query_operation_status` tells the model about an unknown operation. */
export type OperationAnswer =
  | { readonly state: 'succeeded'; readonly value: unknown }
  | { readonly state: 'failed'; readonly message: string }
  /** Pending, not found, still unknown, or the query itself failed: not proof of anything (R21). */
  | { readonly state: 'unconfirmed' };
export type OperationAnswerState = OperationAnswer['state'];

/**
 * Reads a status answer the way a model reads JSON: by its `status` (R27's vocabulary) or
 * `state` (the service's `OperationStatus`) field, so any runtime's status tool is understood.
 */
export function readOperationAnswer(result: ToolResult): OperationAnswer {
  if (result.kind !== 'ok' || result.value === null || typeof result.value !== 'object')
    return { state: 'unconfirmed' };
  const answer = result.value as Record<string, unknown>;
  // OperationStatus puts the HTTP status in `status` when `state` is failed, so `state` comes first.
  const state = typeof answer['state'] === 'string' ? answer['state'] : answer['status'];
  if (state === 'succeeded') return { state: 'succeeded', value: answer['value'] ?? answer['result'] };
  if (state === 'failed') {
    const message = answer['message'];
    return { state: 'failed', message: typeof message === 'string' ? message : 'the operation failed' };
  }
  return { state: 'unconfirmed' };
}
