/** Counts of the handles and requests keeping this thread's event loop alive, by type. */
export type ResourceCounts = ReadonlyMap<string, number>;

export function resourceCounts(): ResourceCounts {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

const TIMERS = new Set(['Timeout', 'Immediate']);

/** What is open now that was not in `before`: timers apart, since a timer left behind fires into whatever runs next. */
export function leftoverResources(before: ResourceCounts): { timers: number; other: string[] } {
  let timers = 0;
  const other: string[] = [];
  for (const [type, n] of resourceCounts()) {
    const extra = n - (before.get(type) ?? 0);
    if (extra <= 0) continue;
    if (TIMERS.has(type)) timers += extra;
    else other.push(`${extra} ${type}`);
  }
  return { timers, other };
}

/**
 * `leftoverResources`, but a request that has just completed is not left over. Node lists a
 * request as active until its callback's scope closes, and the promises that callback settles
 * run inside that scope: a trial whose last step awaits one (a command agent's `fs.rm` of its
 * result folder) ends with its own finished request still listed, which retired its worker
 * after every trial (a fresh process and worker per trial: about 1 s of CPU each). So where
 * anything but a timer is left, one turn of the event loop lets finished requests go before
 * a second count; timers are the first count's, as before.
 */
export async function settledLeftovers(before: ResourceCounts): Promise<{ timers: number; other: string[] }> {
  const first = leftoverResources(before);
  if (first.other.length === 0) return first;
  await new Promise<void>((resolve) => setImmediate(resolve));
  return { timers: first.timers, other: leftoverResources(before).other };
}
