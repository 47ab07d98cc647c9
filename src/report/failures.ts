import type { CheckResult, TrialSummary } from '../runner/trial.js';
import type { Cell } from '../runner/run.js';
import { compactJson } from './format.js';
import { replayCommand } from '../runner/replay.js';

export type FailedTrial = Extract<TrialSummary, { status: 'failed' }>;

/** A cell with at least one failed trial, and those of them it kept in full. */
export interface FailingCell {
  readonly cell: Cell;
  /** The failed trials kept in full (all of them, unless the run kept only the first few). */
  readonly failed: readonly FailedTrial[];
  /** Failed trials in all, kept or not. */
  readonly count: number;
  /** Checker names that failed in any of its trials, in first-seen order. */
  readonly checks: readonly string[];
}

export const isFailed = (t: TrialSummary): t is FailedTrial => t.status === 'failed';

/** Checker names that failed in any of the cell's trials, in the order trial indices first show them. */
export const failedChecks = (cell: Cell): string[] => [...new Set(cell.verdicts.flatMap((g) => g.failed))];

/** The cells with failures, in run order. */
export function failingCells(cells: readonly Cell[]): FailingCell[] {
  return cells.flatMap((cell) => {
    const count = cell.metrics.trials - cell.metrics.successes;
    if (count === 0) return [];
    return [{ cell, failed: cell.trials.filter(isFailed), count, checks: failedChecks(cell) }];
  });
}

/** The replay command of a failing cell's first failed trial, kept in full or not. */
export function firstFailureReplay(run: { readonly seed: number }, cell: Cell): string | undefined {
  const group = cell.verdicts.find((g) => g.status === 'failed');
  return (
    group &&
    replayCommand({
      scenario: cell.scenario,
      config: cell.config,
      runSeed: run.seed,
      trialIndex: group.first,
      refs: cell.refs,
    })
  );
}

/** The checks of a trial that did not pass. */
export const notPassed = (trial: TrialSummary): CheckResult[] => trial.checks.filter((c) => c.verdict.valid !== true);

/** `duplicates: orders:ref-1 was created 2 times` (`unknown` verdicts say so). */
export function verdictLine(check: CheckResult): string {
  const v = check.verdict;
  if (v.valid === true) return check.name;
  return v.valid === 'unknown' ? `${check.name} (undecided): ${v.message}` : `${check.name}: ${v.message}`;
}

/** A failed trial as plain lines: heading, each verdict with its evidence, and the replay command. */
export function failedTrialLines(trial: FailedTrial, evidenceMax = 2000): string[] {
  const lines = [
    `trial ${trial.trialIndex} (seed ${trial.seed}, end ${trial.end.kind}): failed ${trial.failed.join(', ')}`,
  ];
  for (const c of notPassed(trial)) {
    lines.push(`  ${verdictLine(c)}`);
    if (c.verdict.valid === false && c.verdict.evidence.length > 0)
      lines.push(`    evidence: ${compactJson(c.verdict.evidence, evidenceMax)}`);
  }
  lines.push(`  replay: ${replayCommand(trial)}`);
  return lines;
}

/** Every check of a trial as a line (`✓ budget`, `✗ duplicates: …`, `? honesty (undecided): …`), for after a timeline. */
export const verdictLines = (checks: readonly CheckResult[]): string[] =>
  checks.map((c) => `${c.verdict.valid === true ? '✓' : c.verdict.valid === false ? '✗' : '?'} ${verdictLine(c)}`);
