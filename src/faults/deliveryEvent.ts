import type { EventOf, WireRequest } from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';

/**
 * The `delivery` event of one arrival of `req` at its service (`copy` 0, or a duplicate's later copies), with its
 * `seq` and `t` slots first for `History.stamp`, and the request's idempotency key last when it carries one.
 */
export function deliveryEvent(req: WireRequest, copy: number): EventOf<'delivery'> {
  const event = {
    seq: 0,
    t: 0,
    type: 'delivery',
    request: req.request,
    tool: req.tool,
    copy,
    call: req.call,
    attempt: req.attempt,
  } as Mutable<EventOf<'delivery'>>;
  if (req.idempotencyKey !== undefined) event.idempotencyKey = req.idempotencyKey;
  return event;
}
