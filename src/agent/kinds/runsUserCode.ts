import type { Scenario } from '../../scenario/scenario.js';

/**
 * Whether any scenario runs code of the user's (an agent or a service module), which workers
 * isolate from the command. The built-in library does not: there, a pool of its own costs more
 * CPU than its trials (bench/sweep.ts), so `sweep` and `explore` run its trials in their process.
 */
export const runsUserCode = (scenarios: readonly Scenario[]): boolean =>
  scenarios.some(
    (s) => s.agent.kind !== 'scripted' || (s.services ?? []).some((service) => typeof service !== 'string'),
  );
