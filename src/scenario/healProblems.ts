import { formatPath } from '../core/zodIssues.js';
import type { CheckedScenario } from './checkedScenario.js';

/** `heal` and `recovery` together: a recovery is judged from a heal, and a rule that starts after the heal can never fire. */
export function healProblems(scenario: CheckedScenario): string[] {
  const out: string[] = [];
  const heal = scenario.heal;
  if (scenario.recovery && !heal)
    out.push(
      'recovery: judged from the moment the faults heal, and this scenario has no heal; expected heal: { atMs } beside it',
    );
  // A crashed agent's restart is judged by it too (a restart that never finishes fails it).
  if (scenario.checks?.includes('recovery') && !scenario.recovery && !scenario.crash?.agent)
    out.push(
      'checks: "recovery" judges a recovery expectation, and this scenario has none; ' +
        'expected recovery: { withinMs } (with heal: { atMs }) or crash.agent',
    );
  if (heal) {
    scenario.faults.forEach((rule, i) => {
      const from = rule.match.from;
      if (from !== undefined && from >= heal.atMs)
        out.push(
          `${formatPath(['faults', i, 'match', 'from'])}: ${from} is not before heal.atMs (${heal.atMs}): ` +
            `the rule could never fire; expected a window that opens before the heal`,
        );
    });
  }
  return out;
}
