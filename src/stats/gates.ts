import { notExercisedMessage, unexercised } from './coverage.js';
import { passIntervals } from './intervals.js';
import type { Cell } from './CellTally.js';
import type { RunResult } from './runResult.js';
import {
  CELL_METRICS,
  countsOf,
  followsK,
  metricText,
  ONLY_SOME,
  percent,
  RUN_METRICS,
  type Gate,
  type GateFailure,
  type GateMetric,
  type GateOp,
  type GateResult,
} from './gate.js';

// The gates in one import: what a gate is (gate.ts), how one is written (parseGate.ts), and here how a run is judged.
export {
  GATE_OPS,
  type CellMetricName,
  type Gate,
  type GateFailure,
  type GateMetric,
  type GateMetricKind,
  type GateOp,
  type GateResult,
  type GateScope,
  type RunMetricName,
} from './gate.js';
export { COVERAGE_GATE, DEFAULT_GATES, GATE_GRAMMAR, parseGate, withCoverageGate, withInfraGate } from './parseGate.js';

// pass^k and friends are floating-point estimates; a gate of `>=1` must hold for an exact 1.
const EPS = 1e-9;

function holds(actual: number, op: GateOp, threshold: number): boolean {
  switch (op) {
    case '>=':
      return actual >= threshold - EPS;
    case '<=':
      return actual <= threshold + EPS;
    case '>':
      return actual - threshold > EPS;
    case '<':
      return threshold - actual > EPS;
    case '==':
      return Math.abs(actual - threshold) <= EPS;
    case '!=':
      return Math.abs(actual - threshold) > EPS;
  }
}

/** The value furthest on the wrong side of the gate. */
function worst(values: readonly number[], op: GateOp, threshold: number): number | null {
  if (values.length === 0) return null;
  if (op === '>=' || op === '>') return Math.min(...values);
  if (op === '<=' || op === '<') return Math.max(...values);
  return values.find((v) => !holds(v, op, threshold)) ?? values[0]!;
}

const kOf = (metric: GateMetric, runK: number): number =>
  metric.kind === 'pass_hat' || metric.kind === 'pass_at' ? (metric.k === 'k' ? runK : metric.k) : 1;

/** The bound a gate on a bound compares, from `c` successes in `n` trials; null when k > n. */
function boundOf(gate: Gate, k: number, c: number, n: number): number | null {
  const intervals = passIntervals([{ n, c }], k, gate.confidence);
  if (intervals === undefined) return null;
  const interval = gate.metric.kind === 'pass_at' ? intervals.passAt : intervals.passHat;
  return gate.op === '>=' || gate.op === '>' ? interval[0] : interval[1];
}

const NEEDS_CAP = 10_000_000;

/**
 * The fewest trials per cell with which the gate's bound holds, starting from `c` of `n` and
 * every further trial going the gate's way (passing for a lower bound, failing for an upper);
 * null when none up to ten million would. With `kFollowsN` (pass^k), k rises with the trials.
 */
export function trialsNeeded(gate: Gate, k: number, c: number, n: number, kFollowsN = false): number | null {
  const lower = gate.op === '>=' || gate.op === '>';
  const ok = (m: number): boolean => {
    const bound = boundOf(gate, kFollowsN ? m : k, lower ? c + m - n : c, m);
    return bound !== null && holds(bound, gate.op, gate.threshold);
  };
  // The bound moves one way as such trials are added, so an exponential search then bisection finds the first count that holds.
  let hi = Math.max(n, k, 1);
  if (ok(hi)) return hi;
  let lo = hi;
  while (!ok(hi)) {
    if (hi >= NEEDS_CAP) return null;
    lo = hi;
    hi = Math.min(NEEDS_CAP, hi * 2);
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

function cellValue(metric: GateMetric, cell: Cell, runK: number): number | null {
  switch (metric.kind) {
    case 'pass_hat':
    case 'pass_at': {
      const k = metric.k === 'k' ? runK : metric.k;
      const curve = metric.kind === 'pass_hat' ? cell.metrics.passHat : cell.metrics.passAt;
      return curve[k - 1] ?? null;
    }
    case 'cell':
      return CELL_METRICS[metric.name].of(cell.metrics);
    case 'run':
      return null;
  }
}

const fmt = (n: number | null): string => (n === null ? 'n/a' : String(Number(n.toFixed(4))));

function unmatched(gate: Gate, run: RunResult): string {
  const { scenario, config } = gate.scope;
  if (scenario !== undefined && !run.scenarios.includes(scenario))
    return `no scenario "${scenario}" in this run (scenarios: ${run.scenarios.join(', ') || 'none'})`;
  if (config !== undefined && !run.configs.includes(config))
    return `no configuration "${config}" in this run (configs: ${run.configs.join(', ') || 'none'})`;
  return 'no finished cell in scope';
}

const bandName = (gate: Gate): string =>
  `${percent(gate.confidence!)} ${gate.op === '>=' || gate.op === '>' ? 'lower' : 'upper'} bound`;

/** A gate on a bound, per cell: held, failed (the estimate fails too), or undecided (only the bound fails). */
function evaluateBoundGate(run: RunResult, gate: Gate, cells: readonly Cell[], scope: GateResult['scope']): GateResult {
  const k = kOf(gate.metric, run.k);
  const values = cells.map((c) => {
    const { n, c: s } = countsOf(gate.metric, c.metrics);
    const actual = n < k ? null : boundOf(gate, k, s, n);
    const estimate = cellValue(gate.metric, c, run.k);
    const failure: GateFailure | undefined =
      actual !== null && holds(actual, gate.op, gate.threshold)
        ? undefined
        : estimate !== null && holds(estimate, gate.op, gate.threshold)
          ? {
              scenario: c.scenario,
              config: c.config,
              actual,
              estimate,
              undecided: { trials: n, needs: trialsNeeded(gate, k, s, n, followsK(gate.metric)) },
            }
          : { scenario: c.scenario, config: c.config, actual, estimate };
    return { actual, failure };
  });
  const failures = values.flatMap((v) => (v.failure ? [v.failure] : []));
  const actual = worst(
    values.flatMap((v) => (v.actual === null ? [] : [v.actual])),
    gate.op,
    gate.threshold,
  );
  const passed = failures.length === 0;
  const band = bandName(gate);
  const metric = metricText(gate.metric);
  const figures = (f: GateFailure): string => `${band} ${fmt(f.actual)}, ${metric} = ${fmt(f.estimate ?? null)}`;
  const failed = failures
    .filter((f) => f.undecided === undefined)
    .map((f) => `${f.scenario} × ${f.config} (${figures(f)})`);
  // Undecided cells mostly share their figures (every trial passed, the same k): one clause per group, not per cell.
  const groups = new Map<string, GateFailure[]>();
  for (const f of failures.filter((x) => x.undecided !== undefined)) {
    const key = `${figures(f)}\u0000${f.undecided!.trials}\u0000${f.undecided!.needs}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const way = gate.op === '>=' || gate.op === '>' ? 'passing' : 'failing';
  const undecided = [...groups.values()].map((fs) => {
    const { trials, needs } = fs[0]!.undecided!;
    const what =
      needs === null ? `no trial count would decide ${gate.text}` : `${gate.text} needs n ≥ ${needs} trials per cell`;
    return (
      `${failed.length > 0 ? 'undecided in ' : ''}${fs.map((f) => `${f.scenario} × ${f.config}`).join(', ')} (${figures(fs[0]!)}): ` +
      `with every further trial ${way}, ${what}; this run has ${trials}`
    );
  });
  const verb = failed.length === 0 ? 'undecided' : 'failed';
  const message = passed
    ? `${gate.text} held in ${cells.length} cell${cells.length === 1 ? '' : 's'} (worst ${band} ${fmt(actual)})`
    : `${gate.text} ${verb} in ${failures.length} of ${cells.length} cells: ${[...failed, ...undecided].join('; ')}`;
  return { gate: gate.text, passed, actual, scope, failures, message, confidence: gate.confidence! };
}

/** Each rule that left the cell not exercised, named by its index and match. */
const silentRules = (cell: Cell): string =>
  unexercised(cell.metrics.coverage, cell.metrics.trials)
    .map((r) => notExercisedMessage(r, cell.metrics.trials))
    .join('; ') || 'every rule fired';

function evaluateGate(run: RunResult, gate: Gate): GateResult {
  const { scenario, config } = gate.scope;
  const cells = run.cells.filter(
    (c) => (scenario === undefined || c.scenario === scenario) && (config === undefined || c.config === config),
  );
  const level = gate.metric.kind === 'run' ? 'run' : 'cell';
  const scope = { ...gate.scope, level, cells: cells.length } as const;
  if (gate.metric.kind === 'run') {
    const actual = RUN_METRICS[gate.metric.name].of(run, cells);
    const passed = holds(actual, gate.op, gate.threshold);
    const message = `${gate.text} ${passed ? 'held' : 'failed'}: ${gate.metric.name} = ${fmt(actual)}`;
    return { gate: gate.text, passed, actual, scope, failures: [], message };
  }
  // A gate whose scope matches nothing fails: a misspelt scenario must not pass silently.
  if (cells.length === 0)
    return {
      gate: gate.text,
      passed: false,
      actual: null,
      scope,
      failures: [],
      message: `${gate.text} failed: ${unmatched(gate, run)}`,
    };
  const only = gate.metric.kind === 'cell' ? ONLY_SOME[gate.metric.name] : undefined;
  if (only) {
    const having = cells.filter((c) => only.has(c.metrics));
    if (having.length === 0)
      return {
        gate: gate.text,
        passed: false,
        actual: null,
        scope: { ...scope, cells: 0 },
        failures: [],
        message: `${gate.text} failed: ${only.none}`,
      };
    return judgeCells(run, gate, having, { ...scope, cells: having.length });
  }
  return judgeCells(run, gate, cells, scope);
}

function judgeCells(run: RunResult, gate: Gate, cells: readonly Cell[], scope: GateResult['scope']): GateResult {
  if (gate.confidence !== undefined) return evaluateBoundGate(run, gate, cells, scope);

  const values = cells.map((c) => ({
    scenario: c.scenario,
    config: c.config,
    actual: cellValue(gate.metric, c, run.k),
  }));
  const failures = values.filter((v) => v.actual === null || !holds(v.actual, gate.op, gate.threshold));
  const actual = worst(
    values.flatMap((v) => (v.actual === null ? [] : [v.actual])),
    gate.op,
    gate.threshold,
  );
  const passed = failures.length === 0;
  const where =
    gate.metric.kind === 'cell' && gate.metric.name === 'unexercised'
      ? failures
          .map(
            (f) =>
              `${f.scenario} × ${f.config}: ${silentRules(cells.find((c) => c.scenario === f.scenario && c.config === f.config)!)}`,
          )
          .join('; ')
      : failures.map((f) => `${f.scenario} × ${f.config} (${fmt(f.actual)})`).join(', ');
  const message = passed
    ? `${gate.text} held in ${cells.length} cell${cells.length === 1 ? '' : 's'} (worst ${fmt(actual)})`
    : `${gate.text} failed in ${failures.length} of ${cells.length} cells: ${where}`;
  return { gate: gate.text, passed, actual, scope, failures, message };
}

/** Judges every gate against the run: per scenario × configuration cell, or once for a run-level metric. */
export function evaluateGates(run: RunResult, gates: readonly Gate[]): GateResult[] {
  return gates.map((g) => evaluateGate(run, g));
}

/** True when every gate held. */
export const gatesPassed = (results: readonly GateResult[]): boolean => results.every((r) => r.passed);

/** What a run is known to hold before it starts: enough to tell a gate that can never hold. */
export interface RunShape {
  readonly k: number;
  /** Where k came from when not `--k` (`faultline.config.ts: k`): a refusal names it, not a flag the user never typed. */
  readonly kFrom?: string;
  readonly scenarios: readonly string[];
  readonly configs: readonly string[];
}

// The values each metric can take: a gate wholly outside them fails whatever the agent does.
const RATE: readonly [number, number] = [0, 1];
const COUNT: readonly [number, number] = [0, Number.POSITIVE_INFINITY];
const rangeOf = (m: GateMetric): readonly [number, number] =>
  m.kind === 'pass_hat' ||
  m.kind === 'pass_at' ||
  (m.kind === 'cell' && (m.name === 'pass_rate' || m.name === 'recovery')) ||
  (m.kind === 'run' && m.name === 'interrupted')
    ? RATE
    : COUNT;

function reachable(op: GateOp, t: number, [lo, hi]: readonly [number, number]): boolean {
  switch (op) {
    case '>=':
      return t <= hi + EPS;
    case '>':
      return t < hi - EPS;
    case '<=':
      return t >= lo - EPS;
    case '<':
      return t > lo + EPS;
    case '==':
      return t >= lo - EPS && t <= hi + EPS;
    case '!=':
      return true;
  }
}

/** The run's k as the user set it: `--k 2`, or `k = 2 (from faultline.config.ts: k)`. */
const kText = (k: number, from: string | undefined): string =>
  from === undefined ? `--k ${k}` : `k = ${k} (from ${from})`;

/** Why a gate on a bound cannot hold with `k` trials per cell even if every trial goes its way. */
function unreachableBound(gate: Gate, trials: number, kFrom: string | undefined): string[] {
  const kFollows = followsK(gate.metric);
  const k = kOf(gate.metric, trials);
  const lower = gate.op === '>=' || gate.op === '>';
  const best = boundOf(gate, k, lower ? trials : 0, trials);
  if (best !== null && holds(best, gate.op, gate.threshold)) return [];
  const way = lower ? 'passing' : 'failing';
  const needs = trialsNeeded(gate, k, lower ? trials : 0, trials, kFollows);
  const seen = `with every trial ${way}, the ${bandName(gate)} of ${metricText(gate.metric)} from ${trials} trials is ${fmt(best)}`;
  if (needs !== null)
    return [`${seen}; it needs n ≥ ${needs} trials per cell (--k ${needs}), and this run has ${kText(trials, kFrom)}`];
  const hint = kFollows
    ? ` (pass^k follows --k, and pass^n from n trials cannot be bounded away from 0: name a fixed k such as pass^${Math.min(trials, 4)})`
    : '';
  return [
    `${seen}, and no trial count up to ${NEEDS_CAP.toLocaleString('en-US')} would reach ${gate.threshold}${hint}`,
  ];
}

/**
 * Why each gate could never hold in a run of this shape (empty when all can): a pass^n with
 * n above the run's k, a threshold outside the metric's range, a scope naming a scenario or
 * configuration the run does not have. Checked before the first trial, not after the last.
 */
export function impossibleGates(gates: readonly Gate[], shape: RunShape): string[] {
  const out: string[] = [];
  for (const gate of gates) {
    const { metric, scope } = gate;
    const why: string[] = [];
    if ((metric.kind === 'pass_hat' || metric.kind === 'pass_at') && metric.k !== 'k' && metric.k > shape.k) {
      why.push(
        `${metricText(metric)} needs at least ${metric.k} trials per cell, and this run has ${kText(shape.k, shape.kFrom)}`,
      );
    }
    const [lo, hi] = rangeOf(metric);
    if (!reachable(gate.op, gate.threshold, [lo, hi])) {
      why.push(`${metricText(metric)} is ${hi === 1 ? 'a rate from 0 to 1' : 'never negative'}`);
    }
    if (scope.scenario !== undefined && !shape.scenarios.includes(scope.scenario)) {
      why.push(`no scenario "${scope.scenario}" in this run (scenarios: ${shape.scenarios.join(', ') || 'none'})`);
    }
    if (scope.config !== undefined && !shape.configs.includes(scope.config)) {
      why.push(`no configuration "${scope.config}" in this run (configs: ${shape.configs.join(', ') || 'none'})`);
    }
    if (gate.confidence !== undefined && why.length === 0) why.push(...unreachableBound(gate, shape.k, shape.kFrom));
    if (why.length > 0) out.push(`--gate ${gate.text} can never hold: ${why.join('; ')}`);
  }
  return out;
}
