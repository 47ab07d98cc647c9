import type { ExecutionConfigLike } from '../runtime/executionConfig.js';
import type { IsolationOptions } from '../runner/pool/runOnWorkers.js';
import { matrixJobs, runMatrix, type RunResult } from '../runner/run.js';
import { cellColumns, cellRuns } from '../runner/cellLabel.js';
import { ignoresConfigs } from '../runner/notApplicable.js';
import { matrixAgentOf } from '../scenario/library.js';
import type { Scenario } from '../scenario/scenario.js';
import type { TrialSummary } from '../runner/trial.js';
import { judgePointCoverage } from './sweepCoverage.js';
import { crashedAt, pointSeed, sweepPlan, type SweepSeries, type SweepTarget } from './sweepFaults.js';

/** One λ of one series: the whole matrix, run under the series' faults at that intensity. */
export interface SweepPoint {
  readonly lambda: number;
  /** The run seed of this point's matrix (see `pointSeed`). */
  readonly seed: number;
  readonly run: RunResult;
}

export interface SweepSeriesResult {
  readonly series: SweepSeries;
  readonly points: readonly SweepPoint[];
}

/** pass^k against fault intensity: every series at every λ (ReliabilityBench's R(k, λ)). */
export interface SweepResult {
  readonly seed: number;
  readonly k: number;
  readonly lambdas: readonly number[];
  readonly target: SweepTarget;
  readonly scenarios: readonly string[];
  readonly configs: readonly string[];
  readonly series: readonly SweepSeriesResult[];
  /** `--may-not-fire`: the sweep's own rules were never required to fire (see `judgePointCoverage`). */
  readonly mayNotFire: boolean;
  /** True when a stop signal ended the sweep early: the points hold what finished. */
  readonly interrupted: boolean;
  /**
   * The cells (`scenario` and matrix `agent`) whose agent retries in its own code: no retry
   * configuration applies to them, so their replay lines name none (sweep refuses `--config` there).
   */
  readonly configless?: (refs: { readonly scenario: string; readonly agent?: string }) => boolean;
}

export interface SweepOptions {
  readonly scenarios: readonly Scenario[];
  readonly configs: readonly ExecutionConfigLike[];
  readonly k: number;
  readonly seed: number;
  readonly lambdas: readonly number[];
  readonly series: readonly SweepSeries[];
  readonly target: SweepTarget;
  /** The sweep's own rules may fire in no trial of a point, at any λ (default: they must fire somewhere in a point with λ > 0). */
  readonly mayNotFire?: boolean;
  /** Worker threads per point's matrix, from its trial count (see `runMatrix`); 0 runs the trials here. */
  readonly workers?: (trials: number) => number;
  readonly isolation?: IsolationOptions;
  readonly signal?: AbortSignal;
  readonly onTrial?: (trial: TrialSummary, done: number, total: number) => void;
  /** Called as each point finishes. */
  readonly onPoint?: (series: SweepSeries, point: SweepPoint) => void;
}

/** Trials a sweep runs: every point is the whole matrix (an agent that ignores configurations under the first only, as `run` runs it). */
export const sweepTrials = (o: Pick<SweepOptions, 'scenarios' | 'configs' | 'k' | 'lambdas' | 'series'>): number =>
  matrixJobs(o.scenarios.length, o.configs.length, o.k, undefined, cellRuns(o.scenarios)).length *
  o.lambdas.length *
  o.series.length;

/**
 * Runs each series at each λ through `runMatrix`, the series' rules added after every
 * scenario's own faults. Points run one after another, series by series, λ ascending;
 * each keeps no trial in full (its verdict groups still name the first failing trial of
 * every cell, which is all a replay command needs), so memory stays flat in the trials.
 */
export async function runSweep(options: SweepOptions): Promise<SweepResult> {
  const { scenarios, configs, k, seed, lambdas, target, signal } = options;
  const perPoint = matrixJobs(scenarios.length, configs.length, k, undefined, cellRuns(scenarios)).length;
  const total = sweepTrials(options);
  let before = 0;
  let interrupted = false;
  const series: SweepSeriesResult[] = [];
  for (const s of options.series) {
    const points: SweepPoint[] = [];
    for (const lambda of lambdas) {
      if (signal?.aborted) {
        interrupted = true;
        break;
      }
      const runSeed = pointSeed(seed, s.label, lambda);
      const offset = before;
      const matrix = await runMatrix({
        scenarios: s.crash === undefined ? scenarios : scenarios.map((sc) => crashedAt(sc, s)),
        configs,
        k,
        seed: runSeed,
        keepFailures: 0,
        addedFaults: sweepPlan(s, lambda, target),
        workers: options.workers?.(perPoint) ?? 0,
        ...(signal && { signal }),
        ...(options.isolation && { isolation: options.isolation }),
        ...(options.onTrial && {
          onTrial: (t: TrialSummary, done: number) => options.onTrial!(t, offset + done, total),
        }),
      });
      before += perPoint;
      // A point cut short by a signal has not run every trial: its silence proves nothing.
      const run = matrix.interrupted
        ? matrix
        : judgePointCoverage(matrix, s.faults.length, lambda, options.mayNotFire === true);
      const point = { lambda, seed: runSeed, run };
      points.push(point);
      options.onPoint?.(s, point);
      if (run.interrupted) {
        interrupted = true;
        break;
      }
    }
    series.push({ series: s, points });
    if (interrupted) break;
  }
  // Named as the points' runs name their cells: a scenario under several matrix agents is one scenario, its cells labelled by agent.
  return {
    seed,
    k,
    lambdas,
    target,
    scenarios: [...new Set(scenarios.map((s) => s.name))],
    configs: cellColumns(scenarios, configs),
    series,
    mayNotFire: options.mayNotFire === true,
    interrupted,
    configless: configlessCells(scenarios),
  };
}

function configlessCells(scenarios: readonly Scenario[]): NonNullable<SweepResult['configless']> {
  const key = (scenario: string, agent: string | undefined) => `${scenario}\u0000${agent ?? ''}`;
  const own = new Set(scenarios.filter(ignoresConfigs).map((s) => key(s.name, matrixAgentOf(s)?.name)));
  return (refs) => own.has(key(refs.scenario, refs.agent));
}
