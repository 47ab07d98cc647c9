import { failedTrialLines, isFailed, type FailedTrial } from '../report/failures.js';
import { rulesFooter } from '../report/rulesLink.js';
import { coverageText, notExercisedMessage, unexercised } from '../stats/coverage.js';
import { cellMetrics, type CellMetrics } from '../stats/metrics.js';
import type { Cell } from '../runner/run.js';
import type { TrialSummary } from '../runner/trial.js';

/** What the matchers accept: a cell from `runScenario` (or a run's `cells`), one trial, or a list of trials. */
export type ScenarioOutcome = Cell | TrialSummary | readonly TrialSummary[];

export interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

/** The part of vitest's matcher state the matchers read. */
export interface MatcherThis {
  readonly isNot: boolean;
}

export interface Subject {
  /** The trials kept in full (a cell may keep only its first failures). */
  readonly trials: readonly TrialSummary[];
  /** Over every trial, kept or not. */
  readonly metrics: CellMetrics;
  readonly name: string;
}

export const isTrial = (received: unknown): received is TrialSummary =>
  typeof received === 'object' && received !== null && 'status' in received && 'checks' in received;

export function subjectOf(received: unknown): Subject {
  if (
    typeof received === 'object' &&
    received !== null &&
    'metrics' in received &&
    'trials' in received &&
    Array.isArray(received.trials)
  ) {
    const cell = received as Cell;
    return { trials: cell.trials, metrics: cell.metrics, name: `${cell.scenario} × ${cell.config}` };
  }
  const trials = Array.isArray(received) ? (received as TrialSummary[]) : isTrial(received) ? [received] : undefined;
  if (trials === undefined)
    throw new TypeError(
      'faultline matchers expect the result of runScenario (a cell), a trial result or a list of trial results',
    );
  return {
    trials,
    metrics: cellMetrics(trials),
    name: trials[0] ? `${trials[0].scenario} × ${trials[0].config}` : '(no trials)',
  };
}

/** The evidence of the first trial `failing` picks: its verdicts, evidence, replay command and the rules they name. */
export function evidence(trials: readonly TrialSummary[], failing: (t: FailedTrial) => boolean): string {
  const failed = trials.filter(isFailed).filter(failing);
  const first = failed[0];
  if (first === undefined) return '';
  const lines = failedTrialLines(first);
  const rules = rulesFooter(lines);
  const more =
    failed.length > 1
      ? [`(${failed.length - 1} more failed trial${failed.length > 2 ? 's' : ''}; replay each with its --trial)`]
      : [];
  return `\n\n${[...lines, ...more, ...(rules === undefined ? [] : [rules])].join('\n')}`;
}

/** Each rule of the cell's plan and how often it fired: `faults[0] (create_order call 7, partial_write): 0/4 trials, 0×`. */
export const coverageLines = (m: CellMetrics): string =>
  m.coverage.length === 0
    ? ''
    : `\n\nfault coverage:\n${m.coverage.map((r) => `  faults[${r.rule}] (${r.label}): ${coverageText(r, m.trials)}`).join('\n')}`;

/** Why the subject is not exercised (a rule expected to fire fired in no trial), or undefined. */
export const notExercised = (m: CellMetrics): string | undefined => {
  const silent = unexercised(m.coverage, m.trials);
  return silent.length === 0 ? undefined : silent.map((r) => notExercisedMessage(r, m.trials)).join('; ');
};

export const failedCheck =
  (name: string) =>
  (t: FailedTrial): boolean =>
    t.failed.includes(name);
