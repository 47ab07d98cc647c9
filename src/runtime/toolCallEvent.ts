import type { EventOf, ToolContract } from '../core/index.js';
import { businessKeyOf } from './businessKey.js';
import type { CallOptions } from './ToolExecutor.js';
import type { Mutable } from '../core/Mutable.js';

/**
 * The `tool_call` event every execution layer records first, so checkers see every runtime alike.
 * Built with its `seq` and `t` slots first, for `History.stamp` to fill in place.
 */
export function toolCallEvent(
  call: string,
  tool: string,
  contract: ToolContract | undefined,
  input: unknown,
  options: CallOptions,
): EventOf<'tool_call'> {
  const businessKey = contract && businessKeyOf(contract, input);
  // Key by key in the order conditional spreads gave: one object per call, not one per optional field.
  const event = {
    seq: 0,
    t: 0,
    type: 'tool_call',
    call,
    tool,
    risk: contract?.risk ?? 'read',
    honoursKeys: contract?.honoursIdempotencyKeys ?? false,
    input,
  } as Mutable<EventOf<'tool_call'>>;
  if (businessKey !== undefined) event.businessKey = businessKey;
  if (options.caller !== undefined) event.caller = options.caller;
  if (options.turn !== undefined) event.turn = options.turn;
  return event;
}
