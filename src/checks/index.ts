import { undecided, type Verdict } from '../core/index.js';
import { amplification } from './amplification.js';
import { budget } from './budget.js';
import type { Checker } from './checker.js';
import { duplicates } from './duplicates.js';
import { goalState } from './goalState.js';
import { honesty } from './honesty.js';
import { modelMistakes } from './modelMistakes.js';
import { modelRetries } from './modelRetries.js';
import { processCleanup } from './processCleanup.js';
import { recovery } from './recovery.js';
import type { Expectations, TrialRecord } from './record.js';
import { retryDiscipline } from './retryDiscipline.js';
import { secrets } from './secrets.js';

export type { Checker } from './checker.js';
export type { Expectations, RecoveryExpectation, TrialEnd, TrialEndKind, TrialRecord } from './record.js';
export { amplification, operationLoads, type OperationLoad } from './amplification.js';
export { budget } from './budget.js';
export { duplicates } from './duplicates.js';
export { goalState, partialDiff, type StateDiff } from './goalState.js';
export { honesty } from './honesty.js';
export { modelCallLoads, modelRetries } from './modelRetries.js';
export { isModelMistakeLie, MODEL_MISTAKE_KINDS, modelMistakes } from './modelMistakes.js';
export { processCleanup } from './processCleanup.js';
export { measureRecovery, recovery, type RecoveryMeasure, type StaleWait } from './recovery.js';
export { PERMANENT_KINDS, retryDiscipline } from './retryDiscipline.js';
export { maskSecret, secrets } from './secrets.js';
export { BUSINESS_KEY_FIELDS, businessKeyOf, parseSubject, STATUS_TOOL, subjectOf, TrialIndex } from './trialIndex.js';

/**
 * Every built-in checker, in report order. `recovery` judges only scenarios that declare a
 * `recovery` expectation: the others run without it (see `checkersOf`); `model-mistakes` judges
 * scenarios whose faults make the model's own mistakes (and explore's plans where there is a model).
 */
export const BUILTIN_CHECKERS: readonly Checker[] = [
  goalState,
  duplicates,
  budget,
  retryDiscipline,
  amplification,
  modelRetries,
  honesty,
  secrets,
  processCleanup,
  recovery,
  modelMistakes,
];

/**
 * The built-in checker with this name (`goal-state`, `duplicates`, `budget`, `retry-discipline`, `amplification`,
 * `model-retries`, `honesty`, `secrets`, `process-cleanup`, `recovery`, `model-mistakes`).
 */
export function checkerByName(name: string): Checker | undefined {
  return BUILTIN_CHECKERS.find((c) => c.name === name);
}

/** One checker's verdict on one trial. */
export interface CheckResult {
  readonly name: string;
  readonly verdict: Verdict;
}

/**
 * Runs each checker on the trial. A checker that throws (a user's, most likely) gets an
 * `unknown` verdict naming the error, so one broken checker never ends the run.
 */
export function runCheckers(
  record: TrialRecord,
  expect: Expectations,
  checkers: readonly Checker[] = BUILTIN_CHECKERS,
): readonly CheckResult[] {
  return checkers.map((c) => {
    try {
      return { name: c.name, verdict: c.check(record, expect) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { name: c.name, verdict: undecided(`checker ${c.name} threw: ${message}`) };
    }
  });
}
