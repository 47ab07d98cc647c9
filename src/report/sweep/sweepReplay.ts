import type { SweepSeries, SweepTarget } from '../../sweep/sweepFaults.js';
import { shellQuote } from '../../runner/replay.js';

/** What reproduces one trial of a sweep: its cell, its point (series and λ) and its index. */
export interface SweepReplayTarget {
  readonly scenario: string;
  /** Left out for an agent that retries in its own code: sweep refuses `--config` for it. */
  readonly config: string | undefined;
  /** The matrix agent of faultline.config.ts the cell ran (`--agent`), if any. */
  readonly agent?: string;
  /** The stand-in's behaviour the sweep gave the scenario (`--behaviour`), if any. */
  readonly behaviour?: string;
  readonly series: SweepSeries;
  readonly lambda: number;
  /** The sweep's seed (each point's own seed is derived from it). */
  readonly seed: number;
  readonly target: SweepTarget;
  readonly trialIndex: number;
}

/**
 * The one command that reruns a trial of a sweep: `faultline sweep` narrowed to its scenario,
 * configuration, series and λ, with `--replay` naming the trial.
 *
 * @example sweepReplayCommand(t) // 'faultline sweep email-rate-limit-seconds --config naive --fault rate_limit
 * --lambda 0.3 --seed 1 --replay 2'
 */
export function sweepReplayCommand(t: SweepReplayTarget): string {
  return [
    'faultline sweep',
    shellQuote(t.scenario),
    ...(t.config === undefined ? [] : ['--config', shellQuote(t.config)]),
    ...(t.agent === undefined ? [] : ['--agent', shellQuote(t.agent)]),
    ...(t.behaviour === undefined ? [] : ['--behaviour', shellQuote(t.behaviour)]),
    ...t.series.faults.flatMap((f) => ['--fault', shellQuote(f.arg)]),
    ...(t.series.mix ? ['--mix'] : []),
    ...(t.series.crash === undefined ? [] : ['--crash', shellQuote(JSON.stringify(t.series.crash))]),
    ...(t.target === 'any' ? ['--status-queries'] : []),
    '--lambda',
    String(t.lambda),
    '--seed',
    String(t.seed),
    '--replay',
    String(t.trialIndex),
  ].join(' ');
}
