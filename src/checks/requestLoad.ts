import type { EventOf } from '../core/index.js';

/**
 * The load each request put on the service side: every send that got any answer or none
 * (a 503 refused at the door is load too), plus every extra copy of a duplicated delivery.
 * From the history's responses and deliveries (its lists by type), not a pass over every
 * event: nearly three quarters of a crowd's history are other events. A map to look requests up in and to
 * sum: its order says nothing (the responses' requests come first).
 */
export function requestLoad(
  responses: readonly EventOf<'response'>[],
  deliveries: readonly EventOf<'delivery'>[],
): Map<string, number> {
  const load = new Map<string, number>();
  for (const e of responses) load.set(e.request, (load.get(e.request) ?? 0) + 1);
  for (const e of deliveries) if (e.copy > 0) load.set(e.request, (load.get(e.request) ?? 0) + 1);
  return load;
}
