import { openTaskState, type ErrorData, type EventOf } from '../core/index.js';
import type { ToolResult } from './result.js';
import type { Mutable } from '../core/Mutable.js';

/**
 * The `outcome` event that ends a logical call, with its `seq` and `t` slots first for
 * `History.stamp`: the error and the operation when there are, and the open task a successful
 * answer reports. Key by key in the order conditional spreads gave, one object per call.
 */
export function outcomeEvent(
  call: string,
  tool: string,
  result: ToolResult,
  error: ErrorData | undefined,
  op: string | undefined,
): EventOf<'outcome'> {
  const event = {
    seq: 0,
    t: 0,
    type: 'outcome',
    call,
    tool,
    result: result.kind,
    attempts: result.attempts,
  } as Mutable<EventOf<'outcome'>>;
  if (error !== undefined) event.error = error;
  if (op !== undefined) event.op = op;
  const task = openTaskState(result.kind === 'ok' ? result.value : undefined);
  if (task !== undefined) event.task = task;
  return event;
}
