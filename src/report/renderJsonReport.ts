import type { z } from 'zod';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';
import type { GateResult } from '../stats/gates.js';
import type { CellMetrics } from '../stats/metrics.js';
import type { ConfigMetrics } from '../stats/configMetrics.js';
import type { Cell, RunResult } from '../runner/run.js';
import type { TrialSummary } from '../runner/trial.js';
import { INTERVAL_METHOD, type PassIntervalCurves } from '../stats/intervals.js';
import { replayCommand } from '../runner/replay.js';
import {
  JSON_SCHEMA_VERSION,
  JsonReportSchema,
  type IntervalsSchema,
  type JsonReport,
  type WallClock,
} from './jsonReportSchema.js';

// The writer copies the run result's figures; it computes none (src/stats does, once).
export interface JsonReportOptions {
  readonly wallClock: WallClock;
  readonly gates: readonly GateResult[];
  /** Which trials carry their full history (default: the failing ones). */
  readonly history?: 'failing' | 'all';
}

const intervalsJson = (i: PassIntervalCurves): z.infer<typeof IntervalsSchema> => ({
  confidence: i.confidence,
  method: INTERVAL_METHOD,
  passHat: i.hat.map(([lo, hi]) => [lo, hi]),
  passAt: i.at.map(([lo, hi]) => [lo, hi]),
});

// Fields are copied one by one so the report's shape is the schema's, not whatever the engine adds later.
const cellMetricsJson = (m: CellMetrics): JsonReport['cells'][number]['metrics'] => ({
  trials: m.trials,
  successes: m.successes,
  passHat: [...m.passHat],
  passAt: [...m.passAt],
  intervals: intervalsJson(m.intervals),
  checkFailures: { ...m.checkFailures },
  ends: { ...m.ends },
  ...(m.infraErrors !== undefined && { infraErrors: m.infraErrors }),
  ...(m.cost !== undefined && { cost: m.cost }),
  ...(m.costPerTrial !== undefined && { costPerTrial: m.costPerTrial }),
  duplicateEffects: m.duplicateEffects,
  budgetViolations: m.budgetViolations,
  calls: m.calls,
  operations: m.operations,
  attempts: m.attempts,
  deliveries: m.deliveries,
  sends: m.sends,
  faults: m.faults,
  coverage: m.coverage.map((r) => ({
    rule: r.rule,
    label: r.label,
    mustFire: r.mustFire,
    trials: r.trials,
    firings: r.firings,
  })),
  attemptsPerCall: { mean: m.attemptsPerCall.mean, max: m.attemptsPerCall.max },
  amplification: m.amplification,
  tokens: { input: m.tokens.input, output: m.tokens.output },
  durationMs: { p50: m.durationMs.p50, p95: m.durationMs.p95, max: m.durationMs.max },
  durations: m.durations.map(([ms, n]) => [ms, n]),
  ...(m.crowd && {
    crowd: {
      agents: m.crowd.agents,
      succeeded: m.crowd.succeeded,
      successRate: m.crowd.successRate,
      completionMs: { ...m.crowd.completionMs },
      completions: m.crowd.completions.map(([ms, n]) => [ms, n]),
      throttled: { ...m.crowd.throttled },
      maxSendsPerOperation: m.crowd.maxSendsPerOperation,
      loadBinMs: m.crowd.loadBinMs,
      load: [...m.crowd.load],
      goodput: [...m.crowd.goodput],
    },
  }),
  ...(m.recovery && {
    recovery: {
      trials: m.recovery.trials,
      recovered: m.recovery.recovered,
      rate: m.recovery.rate,
      ...(m.recovery.interval && { interval: [...m.recovery.interval] as [number, number] }),
      timeToRecoverMs: { ...m.recovery.timeToRecoverMs },
      times: m.recovery.times.map(([ms, n]) => [ms, n]),
      never: m.recovery.never,
      callsAfter: m.recovery.callsAfter,
    },
  }),
});

const configJson = (m: ConfigMetrics): JsonReport['configs'][number] => ({
  config: m.config,
  scenarios: m.scenarios,
  trials: m.trials,
  successes: m.successes,
  passHat: [...m.passHat],
  passAt: [...m.passAt],
  intervals: intervalsJson(m.intervals),
  duplicateEffects: m.duplicateEffects,
  budgetViolations: m.budgetViolations,
  amplification: m.amplification,
  failingScenarios: [...m.failingScenarios],
  durationMs: { p50: m.durationMs.p50, p95: m.durationMs.p95, max: m.durationMs.max },
  tokens: { input: m.tokens.input, output: m.tokens.output },
});

function statsJson(s: TrialSummary['stats']): JsonReport['cells'][number]['trials'][number]['stats'] {
  const { crowd, recovery, ...rest } = s;
  return {
    ...rest,
    firings: s.firings.map(([rule, n]) => [rule, n]),
    tokens: { ...s.tokens },
    ...(crowd && {
      crowd: {
        ...crowd,
        completionMs: crowd.completionMs.map(([ms, n]) => [ms, n]),
        throttled: { ...crowd.throttled },
        load: [...crowd.load],
        goodput: [...crowd.goodput],
      },
    }),
    ...(recovery && { recovery: { ...recovery } }),
  };
}

function trialJson(t: TrialSummary, withHistory: boolean): JsonReport['cells'][number]['trials'][number] {
  return {
    index: t.trialIndex,
    seed: t.seed,
    status: t.status,
    end: { ...t.end },
    failed: t.status === 'failed' ? [...t.failed] : [],
    ...(t.recording !== undefined && { recording: t.recording }),
    ...(t.model !== undefined && { model: t.model }),
    ...(t.cost !== undefined && { cost: t.cost }),
    checks: t.checks.map((c) => ({
      name: c.name,
      verdict:
        c.verdict.valid === false
          ? { valid: false, message: c.verdict.message, evidence: [...c.verdict.evidence] }
          : { ...c.verdict },
    })),
    stats: statsJson(t.stats),
    replay: replayCommand(t),
    ...(withHistory ? { history: [...t.history] } : {}),
    ...(withHistory &&
      t.exchanges && {
        exchanges: t.exchanges.map((e) => ({
          sent: e.sent.map((m) => ({ ...m })),
          status: e.status,
          answer: e.answer,
          toolCalls: e.toolCalls.map((c) => ({ ...c })),
        })),
      }),
  };
}

const cellJson = (run: RunResult, c: Cell, all: boolean): JsonReport['cells'][number] => ({
  scenario: c.scenario,
  config: c.config,
  refs: { ...c.refs },
  ...(c.clock === 'real' && { clock: 'real' as const }),
  status: c.metrics.successes === c.metrics.trials && (c.metrics.infraErrors ?? 0) === 0 ? 'passed' : 'failed',
  metrics: cellMetricsJson(c.metrics),
  verdicts: c.verdicts.map((g) => ({
    status: g.status,
    failed: [...g.failed],
    end: { ...g.end },
    trials: g.trials,
    first: g.first,
    replay: replayCommand({
      scenario: c.scenario,
      config: c.config,
      runSeed: run.seed,
      trialIndex: g.first,
      refs: c.refs,
    }),
  })),
  trials: c.trials.map((t) => trialJson(t, all || t.status === 'failed')),
  elided: c.elided,
});

/** The report as a value (not yet validated). */
export function buildJsonReport(run: RunResult, options: JsonReportOptions): JsonReport {
  const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
  const failedTrials = trials - run.cells.reduce((a, c) => a + c.metrics.successes, 0);
  const infraErrors = run.cells.reduce((a, c) => a + (c.metrics.infraErrors ?? 0), 0);
  const cost = run.cost;
  return {
    schemaVersion: JSON_SCHEMA_VERSION,
    tool: 'faultline',
    run: {
      seed: run.seed,
      k: run.k,
      scenarios: [...run.scenarios],
      configs: [...run.configs],
      interrupted: run.interrupted,
      ...(run.stopped && { stopped: { ...run.stopped } }),
      ...(cost !== undefined && { cost }),
      trials,
      failedTrials,
      ...(infraErrors > 0 && { infraErrors }),
      keepFailures: run.keepFailures,
      ...(run.shard && { shard: { ...run.shard } }),
    },
    gates: {
      passed: options.gates.every((g) => g.passed),
      results: options.gates.map((g) => ({
        ...g,
        scope: { ...g.scope },
        failures: g.failures.map((f) => ({ ...f, ...(f.undecided && { undecided: { ...f.undecided } }) })),
      })),
    },
    configs: run.byConfig.map(configJson),
    cells: run.cells.map((c) => cellJson(run, c, options.history === 'all')),
    // Last, so everything above it compares byte for byte between runs with the same seed.
    wallClock: { ...options.wallClock },
  };
}

/** The report as text, validated against `JsonReportSchema` before it leaves. */
export function renderJsonReport(run: RunResult, options: JsonReportOptions): string {
  const report = buildJsonReport(run, options);
  const checked = JsonReportSchema.safeParse(report);
  if (!checked.success) {
    throw new FaultlineError(
      FaultlineErrorCode.Internal,
      `the JSON report does not match its schema: ${checked.error.message}`,
      checked.error.issues,
    );
  }
  // The built value is written, not zod's copy: its key order is the one the builder chose.
  return `${JSON.stringify(report, null, 2)}\n`;
}
