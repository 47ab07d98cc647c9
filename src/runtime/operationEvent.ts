import type { EventOf } from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';

type OperationEvent = EventOf<'operation'>;

/**
 * The `operation` event of a record, with its `seq` and `t` slots first for `History.stamp`. Built
 * key by key in the order `record` gave the conditional spreads (the idempotency key, then the
 * business key): `record` copied every event once more.
 */
export function operationEvent(
  op: string,
  call: string,
  tool: string,
  state: OperationEvent['state'],
  idempotencyKey: string | undefined,
  businessKey: string | undefined,
): OperationEvent {
  const event = { seq: 0, t: 0, type: 'operation', op, call, tool, state } as Mutable<OperationEvent>;
  if (idempotencyKey !== undefined) event.idempotencyKey = idempotencyKey;
  if (businessKey !== undefined) event.businessKey = businessKey;
  return event;
}
