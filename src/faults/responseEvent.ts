import { isHttpError, type EventOf, type NetworkLegs, type WireRequest } from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';
import type { Reply } from './reply.js';

/**
 * The `response` event of `req`, as `reply` reached its caller, with its `seq` and `t` slots first for
 * `History.stamp`. Built in place, key by key in the order the spreads gave (`legs` only when drawn): one object
 * per response, not four.
 */
export function responseEvent(req: WireRequest, reply: Reply, legs: NetworkLegs | undefined): EventOf<'response'> {
  const event = {
    seq: 0,
    t: 0,
    type: 'response',
    request: req.request,
    tool: req.tool,
    call: req.call,
    attempt: req.attempt,
  } as Mutable<EventOf<'response'>>;
  if (legs) event.legs = legs;
  switch (reply.kind) {
    case 'ok':
      event.result = 'ok';
      event.status = 200;
      break;
    case 'error':
      event.result = 'error';
      event.message = reply.error.message;
      if (isHttpError(reply.error)) event.status = reply.error.status;
      break;
    case 'lost':
      event.result = 'lost';
      event.message = reply.message;
  }
  return event;
}
