import { wallMs } from '../core/clock/RealClock.js';
import type { TrialSummary } from '../runner/trial.js';
import type { OutStream } from './io.js';
import { mark, painter } from '../report/paint.js';

/**
 * `bar`: one redrawn line on a terminal; `lines`: a plain line per finished cell (logs, CI, the
 * `list` reporter); `dots`: a mark per trial (the `dot` reporter); `off`: silence.
 */
export type ProgressMode = 'bar' | 'lines' | 'dots' | 'off';

export interface ProgressOptions {
  readonly stream: OutStream;
  readonly mode: ProgressMode;
  readonly k: number;
  /** Trials a cell gets in this run, when not k (a shard runs a slice of each cell). */
  readonly cellSize?: (config: string, scenario: string) => number;
  readonly color?: boolean;
  /** `--quiet`: only what failed (a failing cell's line, a failing trial's mark); no bar. */
  readonly onlyFailing?: boolean;
  /** Wall milliseconds, for throttling the bar (tests pass their own). */
  readonly now?: () => number;
}

export interface Progress {
  readonly onTrial: (trial: TrialSummary, done: number, total: number) => void;
  /** Clears the bar so the report starts on a clean line. */
  finish(): void;
}

const BAR_WIDTH = 24;
// A redraw per trial would cost more than the trial itself (a trial takes ~2 ms).
const REDRAW_MS = 80;

/** The bar's text: `[██████░░░░] 120/240 trials, 3 failed  naive × order-partial-write`. */
export function barLine(done: number, total: number, failed: number, current: string, columns = 80): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  const text = `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${done}/${total} trials, ${failed} failed  ${current}`;
  const max = Math.max(20, columns - 1);
  return [...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text;
}

/** The line for a finished scenario × configuration cell: `✓ rulebook × read-timeout-retry: 4/4 passed [4/60 trials]`. */
export function cellLine(
  config: string,
  scenario: string,
  passed: number,
  trials: number,
  failedChecks: readonly string[],
  done: number,
  total: number,
  color = false,
): string {
  const p = painter(color);
  const why = failedChecks.length > 0 ? ` (${failedChecks.join(', ')})` : '';
  return `${mark(p, passed === trials)} ${config} × ${scenario}: ${passed}/${trials} passed${why} ${p.dim(`[${done}/${total} trials]`)}`;
}

/** Marks per line in `dots` mode, as Playwright's dot reporter wraps. */
export const DOTS_PER_LINE = 80;

/** The `dot` reporter's mark for a trial: `·` passed, `F` failed (Playwright's marks). */
export const dotMark = (trial: Pick<TrialSummary, 'status'>): string => (trial.status === 'passed' ? '·' : 'F');

export function createProgress({
  stream,
  mode: asked,
  k,
  cellSize = () => k,
  color = false,
  onlyFailing = false,
  now = wallMs,
}: ProgressOptions): Progress {
  // A bar redraws what passed too: quiet keeps to lines.
  const mode = onlyFailing && asked === 'bar' ? 'lines' : asked;
  if (mode === 'off') return { onTrial: () => undefined, finish: () => undefined };
  if (mode === 'dots') return dots(stream, color, onlyFailing);
  let failed = 0;
  let lastDraw = -Infinity;
  let drawn = false;
  // Workers finish trials in any order: each cell counts its own until it is complete.
  const cells = new Map<string, { passed: number; trials: number; checks: Set<string> }>();

  const onTrial = (trial: TrialSummary, done: number, total: number): void => {
    if (trial.status === 'failed') failed++;
    if (mode === 'bar') {
      const t = now();
      if (t - lastDraw < REDRAW_MS && done < total) return;
      lastDraw = t;
      stream.write(
        `\r\u001b[2K${barLine(done, total, failed, `${trial.config} × ${trial.scenario}`, stream.columns || 80)}`,
      );
      drawn = true;
      return;
    }
    const key = `${trial.config}\u0000${trial.scenario}`;
    const cell = cells.get(key) ?? { passed: 0, trials: 0, checks: new Set<string>() };
    cells.set(key, cell);
    cell.trials++;
    if (trial.status === 'passed') cell.passed++;
    else if (trial.status === 'failed') trial.failed.forEach((c) => cell.checks.add(c));
    else cell.checks.add('infra-error');
    if (cell.trials === cellSize(trial.config, trial.scenario)) {
      if (!(onlyFailing && cell.passed === cell.trials))
        stream.write(
          `${cellLine(trial.config, trial.scenario, cell.passed, cell.trials, [...cell.checks], done, total, color)}\n`,
        );
      cells.delete(key);
    }
  };
  const finish = (): void => {
    if (drawn) stream.write('\r\u001b[2K');
    drawn = false;
  };
  return { onTrial, finish };
}

function dots(stream: ProgressOptions['stream'], color: boolean, onlyFailing: boolean): Progress {
  const p = painter(color);
  let column = 0;
  return {
    onTrial: (trial) => {
      if (onlyFailing && trial.status === 'passed') return;
      const m = dotMark(trial);
      stream.write(`${m === 'F' ? p.red(m) : m}${++column % DOTS_PER_LINE === 0 ? '\n' : ''}`);
    },
    finish: () => {
      if (column % DOTS_PER_LINE !== 0) stream.write('\n');
      column = 0;
    },
  };
}
