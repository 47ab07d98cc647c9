import { formatRate } from '../report/format.js';
import { DEFAULT_CONFIDENCE } from '../stats/intervals.js';
import { allPassingTrialsNeeded, passKBound } from '../stats/passKBound.js';
import {
  toBeHonest,
  toKeepSecrets,
  toPassCheck,
  toReachGoal,
  toRecover,
  toRetryWithDiscipline,
} from './checkMatchers.js';
import { toMatchHistorySnapshot } from './historySnapshot.js';
import {
  coverageLines,
  evidence,
  failedCheck,
  notExercised,
  subjectOf,
  type MatcherResult,
  type MatcherThis,
} from './subject.js';

export type { ScenarioOutcome } from './subject.js';

/** `toHavePassK`'s bound: a point (`0.9`), or the lower end of pass^k's exact interval at a confidence. */
export interface PassKBound {
  /** pass^k, or its interval's lower bound when `confidence` is given, is at least this (default 1). */
  readonly atLeast?: number;
  /**
   * Judge the lower bound of pass^k's two-sided exact (Clopper–Pearson) interval at this
   * confidence, as a gate `pass^8>=0.9@95%` does, not the point estimate.
   */
  readonly confidence?: number;
}

const pct = (c: number): string => `${+(c * 100).toFixed(2)}%`;

function boundOf(bound: number | PassKBound | undefined): { atLeast: number; confidence: number | undefined } {
  if (bound === undefined || typeof bound === 'number') return { atLeast: bound ?? 1, confidence: undefined };
  if (typeof bound !== 'object' || bound === null)
    throw new TypeError(`toHavePassK: the bound is a number or { atLeast, confidence }, got ${JSON.stringify(bound)}`);
  const { atLeast = 1, confidence } = bound;
  if (typeof atLeast !== 'number' || !(atLeast >= 0 && atLeast <= 1))
    throw new TypeError(`toHavePassK: atLeast must be a number from 0 to 1, got ${JSON.stringify(atLeast)}`);
  if (confidence !== undefined && (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)))
    throw new TypeError(
      `toHavePassK: confidence must be between 0 and 1 (exclusive), such as ${DEFAULT_CONFIDENCE}, got ${JSON.stringify(confidence)}`,
    );
  return { atLeast, confidence };
}

/**
 * `expect(run).toHavePassK(k, atLeast)`: pass^k (the chance that k runs in a row all succeed,
 * estimated from the trials) is at least `atLeast` (default 1: every trial passed). `k`
 * defaults to the number of trials. `toHavePassK(8, { atLeast: 0.9, confidence: 0.95 })`
 * judges the lower bound of pass^8's 95% interval instead, as the gate `pass^8>=0.9@95%` does.
 */
function toHavePassK(this: MatcherThis, received: unknown, k?: number, bound?: number | PassKBound): MatcherResult {
  const { trials, metrics, name } = subjectOf(received);
  const { atLeast, confidence } = boundOf(bound);
  const n = metrics.trials;
  const kk = k ?? n;
  if (!Number.isInteger(kk) || kk < 1 || kk > n) {
    return {
      pass: false,
      message: () => `toHavePassK: k must be a whole number from 1 to the ${n} trials that ran, got ${String(k)}`,
    };
  }
  const value = metrics.passHat[kk - 1]!;
  const interval = confidence === undefined ? undefined : passKBound(metrics, kk, confidence);
  const judged = interval === undefined ? value : interval[0];
  // As the gates judge it: a pass^k over trials in which a fault never happened proves nothing.
  const silent = notExercised(metrics);
  const pass = judged >= atLeast && silent === undefined;
  const summary = `${metrics.successes} of ${n} trials passed`;
  const target =
    confidence === undefined ? `pass^${kk} of ${name}` : `the lower ${pct(confidence)} bound of pass^${kk} of ${name}`;
  const got =
    interval === undefined
      ? `${formatRate(value)} (${summary})`
      : `${formatRate(interval[0])} (pass^${kk} ${formatRate(value)}, ${pct(confidence!)} interval ` +
        `[${formatRate(interval[0])}, ${formatRate(interval[1])}]; ${summary})`;
  const needs = (): string => {
    if (confidence === undefined || judged >= atLeast) return '';
    const least = allPassingTrialsNeeded(kk, atLeast, confidence);
    return least === undefined
      ? `\nno number of trials can bound pass^${kk} to ${atLeast} or more`
      : least > n
        ? `\neven with every trial passing, it takes at least ${least} trials (this subject has ${n})`
        : '';
  };
  return {
    pass,
    message: () =>
      this.isNot
        ? `expected ${target} below ${atLeast}, got ${got}`
        : silent !== undefined && judged >= atLeast
          ? `expected ${target} to be at least ${atLeast} over trials that exercised every fault, but ${silent}${coverageLines(metrics)}`
          : `expected ${target} to be at least ${atLeast}, got ${got}${needs()}${evidence(trials, () => true)}${coverageLines(metrics)}`,
  };
}

/**
 * `expect(run).toExerciseEveryFault()`: every rule of the scenario's fault plan fired in at least
 * one trial (`expect: may-not-fire` rules aside), as the `unexercised` gate judges a cell.
 */
function toExerciseEveryFault(this: MatcherThis, received: unknown): MatcherResult {
  const { metrics, name } = subjectOf(received);
  const silent = notExercised(metrics);
  return {
    pass: silent === undefined,
    message: () =>
      this.isNot
        ? `expected a fault rule of ${name} that never fired, every rule fired${coverageLines(metrics)}`
        : `expected every fault rule of ${name} to fire: ${silent ?? ''}${coverageLines(metrics)}`,
  };
}

/** `expect(run).toHaveNoDuplicateEffects()`: no trial produced one business effect twice (the `duplicates` checker, R18–R25). */
function toHaveNoDuplicateEffects(this: MatcherThis, received: unknown): MatcherResult {
  const { trials, metrics, name } = subjectOf(received);
  const failedTrials = metrics.checkFailures['duplicates'] ?? 0;
  return {
    pass: failedTrials === 0,
    message: () =>
      this.isNot
        ? `expected duplicate effects in ${name}, found none`
        : `expected no duplicate effects in ${name}, found ${metrics.duplicateEffects} in ${failedTrials} of ` +
          `${metrics.trials} trials${evidence(trials, failedCheck('duplicates'))}`,
  };
}

/**
 * `expect(run).toStayWithinBudget()`: no trial went over its attempts, calls, turns or virtual-time budget (the
 * `budget` checker, R6, R8, R11, R28).
 */
function toStayWithinBudget(this: MatcherThis, received: unknown): MatcherResult {
  const { trials, metrics, name } = subjectOf(received);
  return {
    pass: metrics.budgetViolations === 0,
    message: () =>
      this.isNot
        ? `expected a budget violation in ${name}, found none`
        : `expected ${name} to stay within budget, ${metrics.budgetViolations} of ${metrics.trials} trials ` +
          `did not${evidence(trials, failedCheck('budget'))}`,
  };
}

/** The matchers, for `expect.extend` (importing `faultline/vitest` installs them already). */
export const faultlineMatchers = {
  toHavePassK,
  toHaveNoDuplicateEffects,
  toStayWithinBudget,
  toExerciseEveryFault,
  toPassCheck,
  toReachGoal,
  toRetryWithDiscipline,
  toBeHonest,
  toKeepSecrets,
  toRecover,
  toMatchHistorySnapshot,
};
