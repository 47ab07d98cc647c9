import * as vitest from 'vitest';
import type { MatcherState } from 'vitest';
import { verdictLines } from '../report/failures.js';
import { formatTimeline } from '../report/timeline.js';
import type { TrialSummary } from '../runner/trial.js';
import { isTrial, subjectOf, type MatcherResult } from './subject.js';

/**
 * A trial's history as `faultline replay` prints it, one line per event at its virtual time,
 * then each checker's verdict: the same bytes for the same seed, scenario and configuration.
 */
export function historyText(trial: TrialSummary): string {
  if (trial.history.length === 0) {
    throw new TypeError(
      `toMatchHistorySnapshot: trial ${trial.trialIndex} of ${trial.scenario} × ${trial.config} kept ` +
        `no history (the run kept only its failing trials' histories)`,
    );
  }
  return `${formatTimeline(trial.history)}\n\n${verdictLines(trial.checks).join('\n')}`;
}

/** Each trial of the subject, one after the other, a blank line apart. */
const subjectText = (received: unknown): string =>
  isTrial(received) ? historyText(received) : subjectOf(received).trials.map(historyText).join('\n\n');

/** vitest's snapshot helpers for custom matchers, since vitest 4.1 (`Snapshots`); absent before. */
const snapshots = (): typeof vitest.Snapshots | undefined =>
  Reflect.get(vitest, 'Snapshots') as typeof vitest.Snapshots | undefined;

/**
 * `expect(trial).toMatchHistorySnapshot()`: the trial's history (every trial's, for a cell or a
 * list) matches the snapshot vitest keeps for this test, written on the first run and
 * rewritten by `vitest -u`, as `toMatchSnapshot` does. A regression test for an agent or
 * service: any change in what the trial did shows as a line-by-line diff.
 */
export function toMatchHistorySnapshot(this: MatcherState, received: unknown, hint?: string): MatcherResult {
  const api = snapshots();
  if (api === undefined)
    throw new Error(
      'toMatchHistorySnapshot needs vitest 4.1 or later (its Snapshots helpers for custom snapshot matchers)',
    );
  return api.toMatchSnapshot.call(this, subjectText(received), ...(hint === undefined ? [] : [hint]));
}
