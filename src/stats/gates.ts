import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { notExercisedMessage, unexercised } from './coverage.js';
import { passIntervals } from './intervals.js';
import type { CellMetrics } from './metrics.js';
import type { Cell } from './CellTally.js';
import type { RunResult } from './runResult.js';

export const GATE_OPS = ['>=', '<=', '==', '!=', '>', '<'] as const;
export type GateOp = (typeof GATE_OPS)[number];

/** Figures read from one scenario × configuration cell; `null` when the cell cannot tell. */
const CELL_METRICS = {
  pass_rate: { about: 'fraction of trials that passed', of: (m: CellMetrics) => (m.trials === 0 ? null : m.successes / m.trials) },
  failed_trials: { about: 'trials that failed', of: (m: CellMetrics) => m.trials - m.successes },
  duplicates: { about: 'duplicate side effects', of: (m: CellMetrics) => m.duplicateEffects },
  budget_violations: { about: 'trials over budget', of: (m: CellMetrics) => m.budgetViolations },
  amplification: { about: 'deliveries per logical tool call', of: (m: CellMetrics) => m.amplification },
  attempts_per_call: { about: 'mean attempts per tool call', of: (m: CellMetrics) => m.attemptsPerCall.mean },
  max_attempts: { about: 'most attempts for one tool call', of: (m: CellMetrics) => m.attemptsPerCall.max },
  p95_ms: { about: 'p95 virtual completion time, ms', of: (m: CellMetrics) => m.durationMs.p95 },
  unexercised: { about: 'fault rules that fired in no trial of the cell (expect: may-not-fire aside)', of: (m: CellMetrics) => unexercised(m.coverage, m.trials).length },
  tokens: { about: 'model tokens in and out over the cell\'s trials', of: (m: CellMetrics) => m.tokens.input + m.tokens.output },
  tokens_per_trial: { about: 'model tokens in and out per trial', of: (m: CellMetrics) => (m.trials + (m.infraErrors ?? 0) === 0 ? null : (m.tokens.input + m.tokens.output) / (m.trials + (m.infraErrors ?? 0))) },
  cost_per_trial: {
    about: 'model cost per trial, in the price table\'s currency (null when the model has no price)',
    of: (m: CellMetrics) => (m.cost === undefined || m.trials + (m.infraErrors ?? 0) === 0 ? null : m.cost / (m.trials + (m.infraErrors ?? 0))),
  },
  recovery: {
    about: 'fraction of trials that recovered after the heal (the recovery checker; cells of scenarios with heal and recovery)',
    of: (m: CellMetrics) => (m.recovery === undefined || m.recovery.trials === 0 ? null : m.recovery.rate),
  },
  recovery_p95_ms: {
    about: 'p95 virtual ms from the heal to the goal (null when beyond it trials never recovered; cells of scenarios with heal and recovery)',
    of: (m: CellMetrics) => m.recovery?.timeToRecoverMs.p95 ?? null,
  },
} as const satisfies Record<string, { about: string; of: (m: CellMetrics) => number | null }>;
export type CellMetricName = keyof typeof CELL_METRICS;

/** Metrics only some cells have: a gate on one judges the cells in scope that have it, and fails when none does. */
const ONLY_SOME: Partial<Record<CellMetricName, { readonly has: (m: CellMetrics) => boolean; readonly none: string }>> = {
  recovery: { has: (m) => m.recovery !== undefined, none: 'no cell in scope expects a recovery (a scenario with heal: { atMs } and recovery: { withinMs })' },
  recovery_p95_ms: { has: (m) => m.recovery !== undefined, none: 'no cell in scope expects a recovery (a scenario with heal: { atMs } and recovery: { withinMs })' },
};

/** The successes and trials a rate gate's interval is made from, for a cell. */
function countsOf(metric: GateMetric, m: CellMetrics): { readonly c: number; readonly n: number } {
  if (metric.kind === 'cell' && metric.name === 'recovery') return { c: m.recovery?.recovered ?? 0, n: m.recovery?.trials ?? 0 };
  return { c: m.successes, n: m.trials };
}

/** Figures of the run as a whole (over the cells in scope). */
const RUN_METRICS = {
  interrupted: { about: '1 if the run was stopped early', of: (run: RunResult) => (run.interrupted ? 1 : 0) },
  failing_cells: {
    about: 'cells with a failed trial',
    of: (_run: RunResult, cells: readonly Cell[]) => cells.filter((c) => c.metrics.successes < c.metrics.trials).length,
  },
  infra_errors: {
    about: 'trials the real model provider failed on its own (--live), left out of pass^k',
    of: (_run: RunResult, cells: readonly Cell[]) => cells.reduce((a, c) => a + (c.metrics.infraErrors ?? 0), 0),
  },
  cost: { about: 'model cost of the run, in the price table\'s currency', of: (_run: RunResult, cells: readonly Cell[]) => cells.reduce((a, c) => a + (c.metrics.cost ?? 0), 0) },
} as const satisfies Record<string, { about: string; of: (run: RunResult, cells: readonly Cell[]) => number }>;
export type RunMetricName = keyof typeof RUN_METRICS;

/** `k: 'k'` stands for the run's own k, so default gates can be written before the run exists. */
export type GateMetric =
  | { readonly kind: 'pass_hat'; readonly k: number | 'k' }
  | { readonly kind: 'pass_at'; readonly k: number | 'k' }
  | { readonly kind: 'cell'; readonly name: CellMetricName }
  | { readonly kind: 'run'; readonly name: RunMetricName };
export type GateMetricKind = GateMetric['kind'];

/** Which cells a gate looks at; an empty scope means all of them. */
export interface GateScope {
  readonly scenario?: string;
  readonly config?: string;
}

/** A parsed gate expression such as `order-partial-write:pass^2>=1` or `pass^4>=0.9@95%`. */
export interface Gate {
  /** The expression in canonical form (no spaces). */
  readonly text: string;
  readonly scope: GateScope;
  readonly metric: GateMetric;
  readonly op: GateOp;
  readonly threshold: number;
  /**
   * `@95%`: the gate compares a bound of the rate's two-sided interval at this confidence, not
   * its point estimate: the lower bound for `>=` and `>`, the upper bound for `<=` and `<`.
   */
  readonly confidence?: number;
}

export interface GateFailure {
  readonly scenario: string;
  readonly config: string;
  /** The figure compared: the point estimate, or for a gate on a bound, the bound. */
  readonly actual: number | null;
  /** A gate on a bound: the point estimate beside the bound. */
  readonly estimate?: number | null;
  /**
   * A gate on a bound whose point estimate holds and whose bound does not: the run's trials
   * cannot decide it. `needs`: the trials per cell that would, if every further trial went the
   * gate's way (all passing for `>=`, all failing for `<=`); null when no count would.
   */
  readonly undecided?: { readonly trials: number; readonly needs: number | null };
}

export interface GateResult {
  readonly gate: string;
  readonly passed: boolean;
  /** The worst value among the cells in scope (the run's value for a run-level metric); `null` if none could be computed. */
  readonly actual: number | null;
  readonly scope: GateScope & { readonly level: 'cell' | 'run'; readonly cells: number };
  /** Cells that broke the gate (empty for a run-level metric). */
  readonly failures: readonly GateFailure[];
  /** One line for people: what held or what broke, and where. */
  readonly message: string;
  /** A gate on a bound: the interval's confidence. */
  readonly confidence?: number;
}

const metricNames = [...Object.keys(CELL_METRICS), ...Object.keys(RUN_METRICS)];

/** The grammar, shown whenever a gate does not parse. */
export const GATE_GRAMMAR = [
  'gate grammar: [scope:]metric op value',
  '  scope:  <scenario> | scenario=<name> | config=<name>, comma-separated (default: every cell)',
  `  metric: pass^<n|k>, pass@<n|k>, ${metricNames.join(', ')}`,
  `  op:     ${GATE_OPS.join(' ')}`,
  '  value:  a number, or a percentage such as 95%',
  '  bound:  @<confidence> after a rate (pass^n, pass@n, pass_rate, recovery) with >=, >, <=, <: compares the',
  '          lower (>=, >) or upper (<=, <) bound of its two-sided interval, e.g. @95%',
  '  e.g.    pass^4>=0.95, order-partial-write:pass^2>=1, config=rulebook:duplicates==0, pass^4>=0.9@95%',
].join('\n');

function usage(text: string, why: string): FaultlineError {
  return new FaultlineError(FaultlineErrorCode.Usage, `invalid gate "${text}": ${why}\n${GATE_GRAMMAR}`, { gate: text });
}

function parseScope(text: string, raw: string): GateScope {
  let scenario: string | undefined;
  let config: string | undefined;
  for (const part of raw.split(',').map((p) => p.trim())) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? 'scenario' : part.slice(0, eq).trim();
    const value = eq < 0 ? part : part.slice(eq + 1).trim();
    if (value === '') throw usage(text, `empty name in scope "${raw}"`);
    if (key === 'scenario' && scenario === undefined) scenario = value;
    else if (key === 'config' && config === undefined) config = value;
    else if (key === 'scenario' || key === 'config') throw usage(text, `scope "${raw.trim()}" names ${key} twice`);
    else throw usage(text, `unknown scope key "${key}" (use scenario=<name> or config=<name>)`);
  }
  return { ...(scenario !== undefined ? { scenario } : {}), ...(config !== undefined ? { config } : {}) };
}

function parseMetric(text: string, raw: string): GateMetric {
  const pass = /^pass([\^@])(\d+|k)$/.exec(raw);
  if (pass) {
    const k = pass[2] === 'k' ? 'k' : Number(pass[2]);
    if (k !== 'k' && k < 1) throw usage(text, `k must be at least 1 in "${raw}"`);
    return { kind: pass[1] === '^' ? 'pass_hat' : 'pass_at', k };
  }
  if (Object.hasOwn(CELL_METRICS, raw)) return { kind: 'cell', name: raw as CellMetricName };
  if (Object.hasOwn(RUN_METRICS, raw)) return { kind: 'run', name: raw as RunMetricName };
  throw usage(text, `unknown metric "${raw}"`);
}

function parseValue(text: string, raw: string): number {
  const percent = raw.endsWith('%');
  const body = percent ? raw.slice(0, -1) : raw;
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(body)) throw usage(text, `"${raw}" is not a number`);
  return percent ? Number(body) / 100 : Number(body);
}

function parseConfidence(text: string, raw: string): number {
  const value = parseValue(text, raw);
  if (!(value > 0 && value < 1)) throw usage(text, `confidence "${raw}" must be between 0% and 100% (exclusive)`);
  return value;
}

const followsK = (m: GateMetric): boolean => (m.kind === 'pass_hat' || m.kind === 'pass_at') && m.k === 'k';

const isRate = (m: GateMetric): boolean => m.kind === 'pass_hat' || m.kind === 'pass_at' || (m.kind === 'cell' && (m.name === 'pass_rate' || m.name === 'recovery'));

const percent = (x: number): string => `${Number((x * 100).toFixed(6))}%`;

const metricText = (m: GateMetric): string =>
  m.kind === 'pass_hat' ? `pass^${m.k}` : m.kind === 'pass_at' ? `pass@${m.k}` : m.name;

const scopeText = (s: GateScope): string => {
  if (s.config === undefined) return s.scenario === undefined ? '' : `${s.scenario}:`;
  return s.scenario === undefined ? `config=${s.config}:` : `scenario=${s.scenario},config=${s.config}:`;
};

/**
 * Parses a gate expression. Throws `FAULTLINE_USAGE`, with the grammar, on bad input.
 *
 * @example parseGate('config=rulebook:duplicates==0')
 */
export function parseGate(text: string): Gate {
  const opMatch = /(>=|<=|==|!=|>|<)/.exec(text);
  if (!opMatch) throw usage(text, `no comparison (one of ${GATE_OPS.join(' ')})`);
  const op = opMatch[1] as GateOp;
  const left = text.slice(0, opMatch.index);
  const right = text.slice(opMatch.index + op.length).trim();
  const colon = left.lastIndexOf(':');
  const scope = colon < 0 ? {} : parseScope(text, left.slice(0, colon));
  const metric = parseMetric(text, left.slice(colon + 1).trim());
  const at = right.indexOf('@');
  const threshold = parseValue(text, (at < 0 ? right : right.slice(0, at)).trim());
  const base = `${scopeText(scope)}${metricText(metric)}${op}${threshold}`;
  if (at < 0) return { text: base, scope, metric, op, threshold };
  if (!isRate(metric)) throw usage(text, `a confidence bound (@) applies only to a rate: pass^n, pass@n, pass_rate or recovery, not ${metricText(metric)}`);
  if (op === '==' || op === '!=') throw usage(text, `a confidence bound (@) needs >=, >, <= or <: an interval has no single value to compare with ${op}`);
  const confidence = parseConfidence(text, right.slice(at + 1).trim());
  return { text: `${base}@${percent(confidence)}`, scope, metric, op, threshold, confidence };
}

/**
 * Fault coverage: every rule of a cell's plan fired in at least one of its trials. A gate that
 * holds in a cell whose fault never happened says nothing, so this one is judged beside any
 * gates given (`withCoverageGate`), unless one of them names `unexercised` itself.
 */
export const COVERAGE_GATE: Gate = parseGate('unexercised==0');

/** `gates` and the coverage gate, unless they already judge `unexercised`. */
export const withCoverageGate = (gates: readonly Gate[]): readonly Gate[] =>
  gates.some((g) => g.metric.kind === 'cell' && g.metric.name === 'unexercised') ? gates : [...gates, COVERAGE_GATE];

/**
 * A live run's gates fail closed: beside the gates given, infra errors (the provider failing on
 * its own) may not pass `max` (`--max-infra-errors`, default 0), since a trial not judged is
 * not a pass. A gate given on `infra_errors` replaces it.
 */
export const withInfraGate = (gates: readonly Gate[], max: number): readonly Gate[] =>
  gates.some((g) => g.metric.kind === 'run' && g.metric.name === 'infra_errors') ? gates : [...gates, parseGate(`infra_errors<=${max}`)];

/**
 * The gates a run must hold unless told otherwise: every scenario passes all its trials under
 * each configuration, with no duplicate side effect, no budget violation, and every fault rule fired.
 */
export const DEFAULT_GATES: readonly Gate[] = withCoverageGate(['pass^k>=1', 'duplicates==0', 'budget_violations==0'].map(parseGate));

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

const kOf = (metric: GateMetric, runK: number): number => (metric.kind === 'pass_hat' || metric.kind === 'pass_at' ? (metric.k === 'k' ? runK : metric.k) : 1);

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

const bandName = (gate: Gate): string => `${percent(gate.confidence!)} ${gate.op === '>=' || gate.op === '>' ? 'lower' : 'upper'} bound`;

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
          ? { scenario: c.scenario, config: c.config, actual, estimate, undecided: { trials: n, needs: trialsNeeded(gate, k, s, n, followsK(gate.metric)) } }
          : { scenario: c.scenario, config: c.config, actual, estimate };
    return { actual, failure };
  });
  const failures = values.flatMap((v) => (v.failure ? [v.failure] : []));
  const actual = worst(values.flatMap((v) => (v.actual === null ? [] : [v.actual])), gate.op, gate.threshold);
  const passed = failures.length === 0;
  const band = bandName(gate);
  const metric = metricText(gate.metric);
  const figures = (f: GateFailure): string => `${band} ${fmt(f.actual)}, ${metric} = ${fmt(f.estimate ?? null)}`;
  const failed = failures.filter((f) => f.undecided === undefined).map((f) => `${f.scenario} × ${f.config} (${figures(f)})`);
  // Undecided cells mostly share their figures (every trial passed, the same k): one clause per group, not per cell.
  const groups = new Map<string, GateFailure[]>();
  for (const f of failures.filter((x) => x.undecided !== undefined)) {
    const key = `${figures(f)}\u0000${f.undecided!.trials}\u0000${f.undecided!.needs}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const way = gate.op === '>=' || gate.op === '>' ? 'passing' : 'failing';
  const undecided = [...groups.values()].map((fs) => {
    const { trials, needs } = fs[0]!.undecided!;
    const what = needs === null ? `no trial count would decide ${gate.text}` : `${gate.text} needs n ≥ ${needs} trials per cell`;
    return `${failed.length > 0 ? 'undecided in ' : ''}${fs.map((f) => `${f.scenario} × ${f.config}`).join(', ')} (${figures(fs[0]!)}): with every further trial ${way}, ${what}; this run has ${trials}`;
  });
  const verb = failed.length === 0 ? 'undecided' : 'failed';
  const message = passed
    ? `${gate.text} held in ${cells.length} cell${cells.length === 1 ? '' : 's'} (worst ${band} ${fmt(actual)})`
    : `${gate.text} ${verb} in ${failures.length} of ${cells.length} cells: ${[...failed, ...undecided].join('; ')}`;
  return { gate: gate.text, passed, actual, scope, failures, message, confidence: gate.confidence! };
}

/** Each rule that left the cell not exercised, named by its index and match. */
const silentRules = (cell: Cell): string => unexercised(cell.metrics.coverage, cell.metrics.trials).map((r) => notExercisedMessage(r, cell.metrics.trials)).join('; ') || 'every rule fired';

function evaluateGate(run: RunResult, gate: Gate): GateResult {
  const { scenario, config } = gate.scope;
  const cells = run.cells.filter((c) => (scenario === undefined || c.scenario === scenario) && (config === undefined || c.config === config));
  const level = gate.metric.kind === 'run' ? 'run' : 'cell';
  const scope = { ...gate.scope, level, cells: cells.length } as const;
  if (gate.metric.kind === 'run') {
    const actual = RUN_METRICS[gate.metric.name].of(run, cells);
    const passed = holds(actual, gate.op, gate.threshold);
    const message = `${gate.text} ${passed ? 'held' : 'failed'}: ${gate.metric.name} = ${fmt(actual)}`;
    return { gate: gate.text, passed, actual, scope, failures: [], message };
  }
  // A gate whose scope matches nothing fails: a misspelt scenario must not pass silently.
  if (cells.length === 0) return { gate: gate.text, passed: false, actual: null, scope, failures: [], message: `${gate.text} failed: ${unmatched(gate, run)}` };
  const only = gate.metric.kind === 'cell' ? ONLY_SOME[gate.metric.name] : undefined;
  if (only) {
    const having = cells.filter((c) => only.has(c.metrics));
    if (having.length === 0) return { gate: gate.text, passed: false, actual: null, scope: { ...scope, cells: 0 }, failures: [], message: `${gate.text} failed: ${only.none}` };
    return judgeCells(run, gate, having, { ...scope, cells: having.length });
  }
  return judgeCells(run, gate, cells, scope);
}

function judgeCells(run: RunResult, gate: Gate, cells: readonly Cell[], scope: GateResult['scope']): GateResult {
  if (gate.confidence !== undefined) return evaluateBoundGate(run, gate, cells, scope);

  const values = cells.map((c) => ({ scenario: c.scenario, config: c.config, actual: cellValue(gate.metric, c, run.k) }));
  const failures = values.filter((v) => v.actual === null || !holds(v.actual, gate.op, gate.threshold));
  const actual = worst(values.flatMap((v) => (v.actual === null ? [] : [v.actual])), gate.op, gate.threshold);
  const passed = failures.length === 0;
  const where =
    gate.metric.kind === 'cell' && gate.metric.name === 'unexercised'
      ? failures.map((f) => `${f.scenario} × ${f.config}: ${silentRules(cells.find((c) => c.scenario === f.scenario && c.config === f.config)!)}`).join('; ')
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
  m.kind === 'pass_hat' || m.kind === 'pass_at' || (m.kind === 'cell' && (m.name === 'pass_rate' || m.name === 'recovery')) || (m.kind === 'run' && m.name === 'interrupted') ? RATE : COUNT;

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
const kText = (k: number, from: string | undefined): string => (from === undefined ? `--k ${k}` : `k = ${k} (from ${from})`);

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
  if (needs !== null) return [`${seen}; it needs n ≥ ${needs} trials per cell (--k ${needs}), and this run has ${kText(trials, kFrom)}`];
  const hint = kFollows ? ` (pass^k follows --k, and pass^n from n trials cannot be bounded away from 0: name a fixed k such as pass^${Math.min(trials, 4)})` : '';
  return [`${seen}, and no trial count up to ${NEEDS_CAP.toLocaleString('en-US')} would reach ${gate.threshold}${hint}`];
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
      why.push(`${metricText(metric)} needs at least ${metric.k} trials per cell, and this run has ${kText(shape.k, shape.kFrom)}`);
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
