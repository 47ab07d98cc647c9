import type { HistoryEvent } from '../core/index.js';

/**
 * The load each request put on the service side: every send that got any answer or none
 * (a 503 refused at the door is load too), plus every extra copy of a duplicated delivery.
 */
export function requestLoad(history: readonly HistoryEvent[]): Map<string, number> {
  const load = new Map<string, number>();
  for (const e of history) {
    if (e.type === 'response' || (e.type === 'delivery' && e.copy > 0)) load.set(e.request, (load.get(e.request) ?? 0) + 1);
  }
  return load;
}

