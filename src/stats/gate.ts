// What a gate is: the figures it may name (of a cell, of the run), its scope, its result.
import { unexercised } from './coverage.js';
import type { CellMetrics } from './metrics.js';
import type { Cell } from './CellTally.js';
import type { RunResult } from './runResult.js';

export const GATE_OPS = ['>=', '<=', '==', '!=', '>', '<'] as const;
export type GateOp = (typeof GATE_OPS)[number];

/** Figures read from one scenario × configuration cell; `null` when the cell cannot tell. */
export const CELL_METRICS = {
  pass_rate: {
    about: 'fraction of trials that passed',
    of: (m: CellMetrics) => (m.trials === 0 ? null : m.successes / m.trials),
  },
  failed_trials: { about: 'trials that failed', of: (m: CellMetrics) => m.trials - m.successes },
  duplicates: { about: 'duplicate side effects', of: (m: CellMetrics) => m.duplicateEffects },
  budget_violations: { about: 'trials over budget', of: (m: CellMetrics) => m.budgetViolations },
  amplification: { about: 'deliveries per logical tool call', of: (m: CellMetrics) => m.amplification },
  attempts_per_call: { about: 'mean attempts per tool call', of: (m: CellMetrics) => m.attemptsPerCall.mean },
  max_attempts: { about: 'most attempts for one tool call', of: (m: CellMetrics) => m.attemptsPerCall.max },
  p95_ms: { about: 'p95 virtual completion time, ms', of: (m: CellMetrics) => m.durationMs.p95 },
  unexercised: {
    about: 'fault rules that fired in no trial of the cell (expect: may-not-fire aside)',
    of: (m: CellMetrics) => unexercised(m.coverage, m.trials).length,
  },
  tokens: {
    about: "model tokens in and out over the cell's trials",
    of: (m: CellMetrics) => m.tokens.input + m.tokens.output,
  },
  tokens_per_trial: {
    about: 'model tokens in and out per trial',
    of: (m: CellMetrics) =>
      m.trials + (m.infraErrors ?? 0) === 0
        ? null
        : (m.tokens.input + m.tokens.output) / (m.trials + (m.infraErrors ?? 0)),
  },
  cost_per_trial: {
    about: "model cost per trial, in the price table's currency (null when the model has no price)",
    of: (m: CellMetrics) =>
      m.cost === undefined || m.trials + (m.infraErrors ?? 0) === 0 ? null : m.cost / (m.trials + (m.infraErrors ?? 0)),
  },
  recovery: {
    about:
      'fraction of trials that recovered after the heal (the recovery checker; cells of scenarios with heal and recovery)',
    of: (m: CellMetrics) => (m.recovery === undefined || m.recovery.trials === 0 ? null : m.recovery.rate),
  },
  recovery_p95_ms: {
    about:
      'p95 virtual ms from the heal to the goal (null when beyond it trials never recovered; cells of scenarios with heal and recovery)',
    of: (m: CellMetrics) => m.recovery?.timeToRecoverMs.p95 ?? null,
  },
} as const satisfies Record<string, { about: string; of: (m: CellMetrics) => number | null }>;
export type CellMetricName = keyof typeof CELL_METRICS;

/** Metrics only some cells have: a gate on one judges the cells in scope that have it, and fails when none does. */
export const ONLY_SOME: Partial<
  Record<CellMetricName, { readonly has: (m: CellMetrics) => boolean; readonly none: string }>
> = {
  recovery: {
    has: (m) => m.recovery !== undefined,
    none: 'no cell in scope expects a recovery (a scenario with heal: { atMs } and recovery: { withinMs })',
  },
  recovery_p95_ms: {
    has: (m) => m.recovery !== undefined,
    none: 'no cell in scope expects a recovery (a scenario with heal: { atMs } and recovery: { withinMs })',
  },
};

/** The successes and trials a rate gate's interval is made from, for a cell. */
export function countsOf(metric: GateMetric, m: CellMetrics): { readonly c: number; readonly n: number } {
  if (metric.kind === 'cell' && metric.name === 'recovery')
    return { c: m.recovery?.recovered ?? 0, n: m.recovery?.trials ?? 0 };
  return { c: m.successes, n: m.trials };
}

/** Figures of the run as a whole (over the cells in scope). */
export const RUN_METRICS = {
  interrupted: { about: '1 if the run was stopped early', of: (run: RunResult) => (run.interrupted ? 1 : 0) },
  failing_cells: {
    about: 'cells with a failed trial',
    of: (_run: RunResult, cells: readonly Cell[]) => cells.filter((c) => c.metrics.successes < c.metrics.trials).length,
  },
  infra_errors: {
    about: 'trials the real model provider failed on its own (--live), left out of pass^k',
    of: (_run: RunResult, cells: readonly Cell[]) => cells.reduce((a, c) => a + (c.metrics.infraErrors ?? 0), 0),
  },
  cost: {
    about: "model cost of the run, in the price table's currency",
    of: (_run: RunResult, cells: readonly Cell[]) => cells.reduce((a, c) => a + (c.metrics.cost ?? 0), 0),
  },
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

export const followsK = (m: GateMetric): boolean => (m.kind === 'pass_hat' || m.kind === 'pass_at') && m.k === 'k';

export const isRate = (m: GateMetric): boolean =>
  m.kind === 'pass_hat' ||
  m.kind === 'pass_at' ||
  (m.kind === 'cell' && (m.name === 'pass_rate' || m.name === 'recovery'));

export const percent = (x: number): string => `${Number((x * 100).toFixed(6))}%`;

export const metricText = (m: GateMetric): string =>
  m.kind === 'pass_hat' ? `pass^${m.k}` : m.kind === 'pass_at' ? `pass@${m.k}` : m.name;

export const scopeText = (s: GateScope): string => {
  if (s.config === undefined) return s.scenario === undefined ? '' : `${s.scenario}:`;
  return s.scenario === undefined ? `config=${s.config}:` : `scenario=${s.scenario},config=${s.config}:`;
};
