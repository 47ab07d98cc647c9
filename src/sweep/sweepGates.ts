import { evaluateGates, gatesPassed, type Gate, type GateResult } from '../stats/gates.js';
import type { SweepResult } from './runSweep.js';

/** The gates judged at one point of a sweep. */
export interface SweepPointGates {
  readonly series: string;
  readonly lambda: number;
  readonly passed: boolean;
  readonly results: readonly GateResult[];
}

/** Every gate at every point with λ ≤ `upTo` (every point when it is undefined). */
export interface SweepGates {
  readonly gates: readonly string[];
  readonly upTo: number | null;
  readonly passed: boolean;
  readonly points: readonly SweepPointGates[];
}

/**
 * Judges `gates` at each point of the sweep up to λ = `upTo`, each point's matrix as a run of
 * its own (the gates `faultline run` takes, per scenario × configuration cell): "the rulebook
 * configuration keeps pass^k = 1 up to λ = 0.1" is `--gate config=rulebook:pass^k>=1 --gate-up-to 0.1`.
 */
export function evaluateSweepGates(result: SweepResult, gates: readonly Gate[], upTo: number | undefined): SweepGates {
  const points =
    gates.length === 0
      ? []
      : result.series.flatMap(({ series, points: ps }) =>
          ps
            .filter((p) => upTo === undefined || p.lambda <= upTo)
            .map((p): SweepPointGates => {
              const results = evaluateGates(p.run, gates);
              return { series: series.label, lambda: p.lambda, passed: gatesPassed(results), results };
            }),
        );
  return { gates: gates.map((g) => g.text), upTo: upTo ?? null, passed: points.every((p) => p.passed), points };
}
