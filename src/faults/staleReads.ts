import type { FaultPlan } from './plan.js';

/** How far back the plan's `stale` rules look (0: none has one). */
export const staleReach = (plan: FaultPlan): number =>
  Math.max(0, ...plan.map((r) => (r.fault.kind === 'stale' ? r.fault.lagMs : 0)));

/** Asks every service of `world` that can keep versions to keep as many as the plan's stale reads need. */
export function keepVersionsFor(
  plan: FaultPlan,
  world: { readonly services: readonly { keepVersions?(ms: number): void }[] } | undefined,
): void {
  const reach = staleReach(plan);
  if (reach === 0 || !world) return;
  for (const service of world.services) service.keepVersions?.(reach);
}
