import type { ErrorData, EventOf } from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';

/**
 * The `attempt_end` event of one call attempt, with its `seq` and `t` slots first for `History.stamp`: `ok`, or
 * `error` with the classified error last. One literal, its `result` rewritten in place for a failure, so both
 * executors stamp the same keys in the same order.
 */
export function attemptEndEvent(
  call: string,
  attempt: number,
  request: string,
  error: ErrorData | undefined,
): EventOf<'attempt_end'> {
  const event = {
    seq: 0,
    t: 0,
    type: 'attempt_end',
    call,
    attempt,
    purpose: 'call',
    request,
    result: 'ok',
  } as Mutable<EventOf<'attempt_end'>>;
  if (error !== undefined) {
    event.result = 'error';
    event.error = error;
  }
  return event;
}
