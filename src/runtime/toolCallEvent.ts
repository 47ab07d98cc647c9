import type { EventOf, ToolContract } from '../core/index.js';
import { businessKeyOf } from './businessKey.js';
import type { CallOptions } from './ToolExecutor.js';

/**
 * The `tool_call` event every execution layer records first, so checkers see every runtime alike.
 * Built with its `seq` and `t` slots first, for `History.stamp` to fill in place.
 */
export function toolCallEvent(call: string, tool: string, contract: ToolContract | undefined, input: unknown, options: CallOptions): EventOf<'tool_call'> {
  const businessKey = contract && businessKeyOf(contract, input);
  return {
    seq: 0,
    t: 0,
    type: 'tool_call',
    call,
    tool,
    risk: contract?.risk ?? 'read',
    honoursKeys: contract?.honoursIdempotencyKeys ?? false,
    input,
    ...(businessKey !== undefined && { businessKey }),
    ...(options.caller !== undefined && { caller: options.caller }),
    ...(options.turn !== undefined && { turn: options.turn }),
  };
}
