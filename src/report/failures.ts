import type { CheckResult, TrialResult } from '../runner/trial.js';
import type { Cell } from '../runner/run.js';
import { compactJson } from './format.js';
import { replayCommand } from './replay.js';

export type FailedTrial = Extract<TrialResult, { status: 'failed' }>;

/** A cell with at least one failed trial, and those trials. */
export interface FailingCell {
  readonly cell: Cell;
  readonly failed: readonly FailedTrial[];
  /** Checker names that failed in any of its trials, in first-seen order. */
  readonly checks: readonly string[];
}

export const isFailed = (t: TrialResult): t is FailedTrial => t.status === 'failed';

/** The cells with failures, in run order. */
export function failingCells(cells: readonly Cell[]): FailingCell[] {
  return cells.flatMap((cell) => {
    const failed = cell.trials.filter(isFailed);
    if (failed.length === 0) return [];
    return [{ cell, failed, checks: [...new Set(failed.flatMap((t) => t.failed))] }];
  });
}

/** The checks of a trial that did not pass. */
export const notPassed = (trial: TrialResult): CheckResult[] => trial.checks.filter((c) => c.verdict.valid !== true);

/** `duplicates: orders:ref-1 was created 2 times` (`unknown` verdicts say so). */
export function verdictLine(check: CheckResult): string {
  const v = check.verdict;
  if (v.valid === true) return check.name;
  return v.valid === 'unknown' ? `${check.name} (undecided): ${v.message}` : `${check.name}: ${v.message}`;
}

/** A failed trial as plain lines: heading, each verdict with its evidence, and the replay command. */
export function failedTrialLines(trial: FailedTrial, evidenceMax = 2000): string[] {
  const lines = [`trial ${trial.trialIndex} (seed ${trial.seed}, end ${trial.end.kind}): failed ${trial.failed.join(', ')}`];
  for (const c of notPassed(trial)) {
    lines.push(`  ${verdictLine(c)}`);
    if (c.verdict.valid === false && c.verdict.evidence.length > 0) lines.push(`    evidence: ${compactJson(c.verdict.evidence, evidenceMax)}`);
  }
  lines.push(`  replay: ${replayCommand(trial)}`);
  return lines;
}

/** Every check of a trial as a line (`✓ budget`, `✗ duplicates: …`, `? honesty (undecided): …`), for after a timeline. */
export const verdictLines = (checks: readonly CheckResult[]): string[] =>
  checks.map((c) => `${c.verdict.valid === true ? '✓' : c.verdict.valid === false ? '✗' : '?'} ${verdictLine(c)}`);
