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
