import type { History } from '../core/index.js';
import type { Scenario } from './scenario.js';

/**
 * Marks the scenario's heal in the trial's history (a `heal` event at that instant, once the
 * trial reaches it) and returns what the fault transports take to stop matching from then on.
 * A scenario without `heal` gets nothing: its history is what it was before heals existed.
 */
export function scheduleHeal(
  scenario: Pick<Scenario, 'heal' | 'faults'>,
  history: History,
): { readonly healAtMs?: number } {
  if (!scenario.heal) return {};
  history.markAt(scenario.heal.atMs, { type: 'heal', rules: scenario.faults.length });
  return { healAtMs: scenario.heal.atMs };
}

/** The heal option for a transport whose history `scheduleHeal` already marked. */
export const healOption = (scenario: Pick<Scenario, 'heal'>): { readonly healAtMs?: number } =>
  scenario.heal ? { healAtMs: scenario.heal.atMs } : {};
