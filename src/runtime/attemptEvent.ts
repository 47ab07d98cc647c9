import type { EventOf, WireRequest } from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';

/**
 * The `attempt` event of one call attempt, with its `seq` and `t` slots first for `History.stamp`.
 * Built key by key in the order conditional spreads gave (the idempotency key, then the operation):
 * a spread of a small conditional object cost a copy and a new object shape per attempt.
 */
export function attemptEvent(
  call: string,
  attempt: number,
  tool: string,
  request: string,
  idempotencyKey: string | undefined,
  op: string | undefined,
): EventOf<'attempt'> {
  const event = { seq: 0, t: 0, type: 'attempt', call, attempt, tool, purpose: 'call', request } as Mutable<
    EventOf<'attempt'>
  >;
  if (idempotencyKey !== undefined) event.idempotencyKey = idempotencyKey;
  if (op !== undefined) event.op = op;
  return event;
}

/** The request one call attempt sends, its idempotency key last when it has one (as the spread put it). */
export function attemptRequest(
  request: string,
  tool: string,
  input: unknown,
  call: string,
  attempt: number,
  idempotencyKey: string | undefined,
): WireRequest {
  const sent: Mutable<WireRequest> = { request, tool, purpose: 'call', input, call, attempt };
  if (idempotencyKey !== undefined) sent.idempotencyKey = idempotencyKey;
  return sent;
}
