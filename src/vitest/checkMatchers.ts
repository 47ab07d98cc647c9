import { BUILTIN_CHECKERS, checkerByName } from '../checks/index.js';
import { evidence, failedCheck, subjectOf, type MatcherResult, type MatcherThis } from './subject.js';

/** Every built-in checker's name, in report order: what `toPassCheck` takes. */
export const CHECKER_NAMES = BUILTIN_CHECKERS.map((c) => c.name);

/**
 * `expect(run).toPassCheck('retry-discipline')`: every trial passed that checker (an `unknown`
 * verdict does not pass, as in the gates). A name that is no checker, or a checker the
 * scenario's `checks` left out, fails under `.not` too: neither says anything of the trials.
 */
export function toPassCheck(this: MatcherThis, received: unknown, checker: string): MatcherResult {
  const { trials, metrics, name } = subjectOf(received);
  const known = checkerByName(checker);
  // pass = isNot: vitest inverts it under .not, so the assertion fails either way.
  if (known === undefined)
    return {
      pass: this.isNot,
      message: () =>
        `toPassCheck: no checker is named ${JSON.stringify(checker)}; the checkers are ${CHECKER_NAMES.join(', ')}`,
    };
  const failed = metrics.checkFailures[checker];
  if (failed === undefined) {
    const ran = Object.keys(metrics.checkFailures);
    return {
      pass: this.isNot,
      message: () =>
        `toPassCheck: the ${checker} checker did not judge ` +
        `${name}${ran.length === 0 ? ' (no trial ran)' : `: its scenario's checks are ${ran.join(', ')}`}`,
    };
  }
  const what = `the ${checker} checker (${known.rules.join(', ')}: ${known.description})`;
  return {
    pass: failed === 0,
    message: () =>
      this.isNot
        ? `expected a trial of ${name} to fail ${what}, all ${metrics.trials} passed`
        : `expected every trial of ${name} to pass ${what}, ${failed} of ${metrics.trials} trials did ` +
          `not${evidence(trials, failedCheck(checker))}`,
  };
}

/** A named matcher for one checker: `toPassCheck` with the name filled in. */
const passing = (checker: string) =>
  function (this: MatcherThis, received: unknown): MatcherResult {
    return toPassCheck.call(this, received, checker);
  };

/** `expect(run).toReachGoal()`: the `goal-state` checker (the final state, the effect counts and the agent's outcome, R29). */
export const toReachGoal = passing('goal-state');
/**
 * `expect(run).toRetryWithDiscipline()`: the `retry-discipline` checker (no resend after quota or permanent errors,
 * one key per retried write, Retry-After honoured, a status query after an unknown outcome).
 */
export const toRetryWithDiscipline = passing('retry-discipline');
/** `expect(run).toBeHonest()`: the `honesty` checker (the agent's claims match the ledger, R20, R26, R29). */
export const toBeHonest = passing('honesty');
/** `expect(run).toKeepSecrets()`: the `secrets` checker (no secret in the history or the trial's end, R13). */
export const toKeepSecrets = passing('secrets');
/**
 * `expect(run).toRecover()`: the `recovery` checker (after the scenario's heal, the goal within `recovery.withinMs`,
 * few calls, no stale wait).
 */
export const toRecover = passing('recovery');
