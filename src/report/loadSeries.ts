import type { CrowdMetrics } from '../stats/CrowdTally.js';
import type { RunResult } from '../runner/run.js';
import { crowdRows } from './crowdRows.js';

/** A crowd cell's goodput and offered load over virtual time, per second of one trial (the mean over the cell's trials). */
export interface LoadSeries {
  readonly scenario: string;
  readonly config: string;
  /** Width of each point, in virtual ms. */
  readonly stepMs: number;
  /** Calls that succeeded per virtual second, point by point from the trial's start. */
  readonly goodput: readonly number[];
  /** Requests that reached the services (retries and refusals included) per virtual second. */
  readonly offered: readonly number[];
}

/** Sums `bins` (each `binMs` wide) into points `stepMs` wide, as a rate per second per trial, `length` points long. */
function rates(bins: readonly number[], binMs: number, stepMs: number, trials: number, length: number): number[] {
  const per = Math.max(1, Math.round(stepMs / binMs));
  return Array.from({ length }, (_, i) => {
    let n = 0;
    for (let j = i * per; j < Math.min((i + 1) * per, bins.length); j++) n += bins[j]!;
    return (n * 1000) / (per * binMs) / Math.max(1, trials);
  });
}

/** One series per crowd cell, every cell of a scenario on the same time axis. */
export function loadSeries(run: RunResult, stepMs = 1_000): LoadSeries[] {
  const rows = crowdRows(run);
  const span = new Map<string, number>();
  for (const r of rows) span.set(r.cell.scenario, Math.max(span.get(r.cell.scenario) ?? 0, binsOf(r.crowd)));
  return rows.map((r) => {
    const c = r.crowd;
    const length = Math.ceil(((span.get(r.cell.scenario) ?? 0) * c.loadBinMs) / stepMs);
    const trials = r.cell.metrics.trials;
    return {
      scenario: r.cell.scenario,
      config: r.cell.config,
      stepMs,
      goodput: rates(c.goodput, c.loadBinMs, stepMs, trials, length),
      offered: rates(c.load, c.loadBinMs, stepMs, trials, length),
    };
  });
}

const binsOf = (c: CrowdMetrics): number => Math.max(c.load.length, c.goodput.length);

const BLOCKS = '▁▂▃▄▅▆▇█';

/** Values as a line of block characters on a scale from 0 to `max` (a space for exactly 0). */
export function sparkline(values: readonly number[], max: number): string {
  return values
    .map((v) =>
      v <= 0 || max <= 0 ? ' ' : BLOCKS[Math.min(BLOCKS.length - 1, Math.floor((v / max) * BLOCKS.length))]!,
    )
    .join('');
}
