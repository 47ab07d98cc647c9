import { failedTrialLines, isFailed, type FailedTrial } from '../report/failures.js';
import { formatRate } from '../report/format.js';
import { rulesFooter } from '../report/rulesLink.js';
import { coverageText, notExercisedMessage, unexercised } from '../runner/coverage.js';
import { cellMetrics, type CellMetrics } from '../runner/metrics.js';
import type { Cell } from '../runner/run.js';
import type { TrialSummary } from '../runner/trial.js';

/** What the matchers accept: a cell from `runScenario` (or a run's `cells`), one trial, or a list of trials. */
export type ScenarioOutcome = Cell | TrialSummary | readonly TrialSummary[];

interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

interface Subject {
  /** The trials kept in full (a cell may keep only its first failures). */
  readonly trials: readonly TrialSummary[];
  /** Over every trial, kept or not. */
  readonly metrics: CellMetrics;
  readonly name: string;
}

function subjectOf(received: unknown): Subject {
  if (typeof received === 'object' && received !== null && 'metrics' in received && 'trials' in received && Array.isArray(received.trials)) {
    const cell = received as Cell;
    return { trials: cell.trials, metrics: cell.metrics, name: `${cell.scenario} × ${cell.config}` };
  }
  const trials = Array.isArray(received) ? (received as TrialSummary[]) : typeof received === 'object' && received !== null && 'status' in received && 'checks' in received ? [received as TrialSummary] : undefined;
  if (trials === undefined) throw new TypeError('faultline matchers expect the result of runScenario (a cell), a trial result or a list of trial results');
  return { trials, metrics: cellMetrics(trials), name: trials[0] ? `${trials[0].scenario} × ${trials[0].config}` : '(no trials)' };
}

/** The evidence of the first trial `failing` picks: its verdicts, evidence, replay command and the rules they name. */
function evidence(trials: readonly TrialSummary[], failing: (t: FailedTrial) => boolean): string {
  const failed = trials.filter(isFailed).filter(failing);
  const first = failed[0];
  if (first === undefined) return '';
  const lines = failedTrialLines(first);
  const rules = rulesFooter(lines);
  const more = failed.length > 1 ? [`(${failed.length - 1} more failed trial${failed.length > 2 ? 's' : ''}; replay each with its --trial)`] : [];
  return `\n\n${[...lines, ...more, ...(rules === undefined ? [] : [rules])].join('\n')}`;
}

/** Each rule of the cell's plan and how often it fired: `faults[0] (create_order call 7, partial_write): 0/4 trials, 0×`. */
const coverageLines = (m: CellMetrics): string =>
  m.coverage.length === 0 ? '' : `\n\nfault coverage:\n${m.coverage.map((r) => `  faults[${r.rule}] (${r.label}): ${coverageText(r, m.trials)}`).join('\n')}`;

/** Why the subject is not exercised (a rule expected to fire fired in no trial), or undefined. */
const notExercised = (m: CellMetrics): string | undefined => {
  const silent = unexercised(m.coverage, m.trials);
  return silent.length === 0 ? undefined : silent.map((r) => notExercisedMessage(r, m.trials)).join('; ');
};

const failedCheck = (name: string) => (t: FailedTrial): boolean => t.failed.includes(name);

/**
 * `expect(run).toHavePassK(k, atLeast)`: pass^k (the chance that k runs in a row all succeed,
 * estimated from the trials) is at least `atLeast` (default 1: every trial passed). `k`
 * defaults to the number of trials.
 */
function toHavePassK(this: { isNot: boolean }, received: unknown, k?: number, atLeast = 1): MatcherResult {
  const { trials, metrics, name } = subjectOf(received);
  const n = metrics.trials;
  const kk = k ?? n;
  if (!Number.isInteger(kk) || kk < 1 || kk > n) {
    return { pass: false, message: () => `toHavePassK: k must be a whole number from 1 to the ${n} trials that ran, got ${String(k)}` };
  }
  const value = metrics.passHat[kk - 1]!;
  // As the gates judge it: a pass^k over trials in which a fault never happened proves nothing.
  const silent = notExercised(metrics);
  const pass = value >= atLeast && silent === undefined;
  const summary = `${metrics.successes} of ${n} trials passed`;
  return {
    pass,
    message: () =>
      this.isNot
        ? `expected pass^${kk} of ${name} below ${atLeast}, got ${formatRate(value)} (${summary})`
        : silent !== undefined && value >= atLeast
          ? `expected pass^${kk} of ${name} to be at least ${atLeast} over trials that exercised every fault, but ${silent}${coverageLines(metrics)}`
          : `expected pass^${kk} of ${name} to be at least ${atLeast}, got ${formatRate(value)} (${summary})${evidence(trials, () => true)}${coverageLines(metrics)}`,
  };
}

/**
 * `expect(run).toExerciseEveryFault()`: every rule of the scenario's fault plan fired in at least
 * one trial (`expect: may-not-fire` rules aside), as the `unexercised` gate judges a cell.
 */
function toExerciseEveryFault(this: { isNot: boolean }, received: unknown): MatcherResult {
  const { metrics, name } = subjectOf(received);
  const silent = notExercised(metrics);
  return {
    pass: silent === undefined,
    message: () => (this.isNot ? `expected a fault rule of ${name} that never fired, every rule fired${coverageLines(metrics)}` : `expected every fault rule of ${name} to fire: ${silent ?? ''}${coverageLines(metrics)}`),
  };
}

/** `expect(run).toHaveNoDuplicateEffects()`: no trial produced one business effect twice (the `duplicates` checker, R18–R25). */
function toHaveNoDuplicateEffects(this: { isNot: boolean }, received: unknown): MatcherResult {
  const { trials, metrics, name } = subjectOf(received);
  const failedTrials = metrics.checkFailures['duplicates'] ?? 0;
  return {
    pass: failedTrials === 0,
    message: () =>
      this.isNot
        ? `expected duplicate effects in ${name}, found none`
        : `expected no duplicate effects in ${name}, found ${metrics.duplicateEffects} in ${failedTrials} of ${metrics.trials} trials${evidence(trials, failedCheck('duplicates'))}`,
  };
}

/** `expect(run).toStayWithinBudget()`: no trial went over its attempts, calls, turns or virtual-time budget (the `budget` checker, R6, R8, R11, R28). */
function toStayWithinBudget(this: { isNot: boolean }, received: unknown): MatcherResult {
  const { trials, metrics, name } = subjectOf(received);
  return {
    pass: metrics.budgetViolations === 0,
    message: () =>
      this.isNot
        ? `expected a budget violation in ${name}, found none`
        : `expected ${name} to stay within budget, ${metrics.budgetViolations} of ${metrics.trials} trials did not${evidence(trials, failedCheck('budget'))}`,
  };
}

/** The matchers, for `expect.extend` (importing `faultline/vitest` installs them already). */
export const faultlineMatchers = { toHavePassK, toHaveNoDuplicateEffects, toStayWithinBudget, toExerciseEveryFault };
