import type { ToolResult } from '../result.js';

/** A `create_order` call whose outcome is unknown after a timeout: the R27 object, as the execution layer returns it. */
export function unknownCreateOrder(call: string, attempts: number, message: string): ToolResult {
  return {
    kind: 'unknown',
    call,
    tool: 'create_order',
    attempts,
    unknown: {
      operation_id: 'op-1',
      status: 'unknown',
      error_code: 'timeout',
      execution_confirmed: false,
      retry_allowed: false,
      next_action: 'query_operation_status',
      message,
    },
  };
}
