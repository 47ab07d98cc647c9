import { z } from 'zod';
import { AGENT_OUTCOMES, FaultlineError, FaultlineErrorCode, type HistoryEvent } from '../core/index.js';
import type { GateResult } from '../runner/gates.js';
import type { CellMetrics, ConfigMetrics } from '../runner/metrics.js';
import type { Cell, RunResult } from '../runner/run.js';
import type { TrialResult } from '../runner/trial.js';
import type { ContentionComparison } from '../runner/contention/compareContention.js';
import { ContentionComparisonSchema, contentionJson } from './contention/contentionJson.js';
import { replayCommand } from './replay.js';

/** Bumped on any change a reader of the JSON report would notice. */
export const JSON_SCHEMA_VERSION = 1;

const VerdictSchema = z.union([
  z.strictObject({ valid: z.literal(true) }),
  z.strictObject({ valid: z.literal(false), message: z.string(), evidence: z.array(z.unknown()) }),
  z.strictObject({ valid: z.literal('unknown'), message: z.string() }),
]);

const TrialEndSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('agent_ended'), outcome: z.enum(AGENT_OUTCOMES) }),
  z.strictObject({ kind: z.literal('crashed'), message: z.string() }),
  z.strictObject({ kind: z.literal('hung'), at: z.number() }),
  z.strictObject({ kind: z.literal('budget_exceeded'), limit: z.enum(['turns', 'tool_calls', 'time']), at: z.number() }),
]);

const count = z.number().int().nonnegative();
const rate = z.number().min(0).max(1);

const TrialStatsSchema = z.strictObject({
  turns: count,
  calls: count,
  operations: count,
  attempts: count,
  maxAttemptsPerCall: count,
  deliveries: count,
  sends: count,
  effects: count,
  duplicateEffects: count,
  faults: count,
  durationMs: z.number().nonnegative(),
});

const EventStampSchema = z.looseObject({ seq: count, t: z.number().nonnegative(), type: z.string() });
/** History events are kept as the engine recorded them; only their stamp is checked here. */
const HistoryEventSchema = z.custom<HistoryEvent>((v) => EventStampSchema.safeParse(v).success, {
  message: 'expected a history event with seq, t and type',
});

const TrialSchema = z.strictObject({
  index: count,
  seed: z.number().int(),
  status: z.enum(['passed', 'failed']),
  end: TrialEndSchema,
  /** Checkers that did not pass (empty when the trial passed). */
  failed: z.array(z.string()),
  checks: z.array(z.strictObject({ name: z.string(), verdict: VerdictSchema })),
  stats: TrialStatsSchema,
  replay: z.string(),
  /** Present for failing trials, or for all with `history: 'all'`. */
  history: z.array(HistoryEventSchema).optional(),
});

const CellMetricsSchema = z.strictObject({
  trials: count,
  successes: count,
  passHat: z.array(rate),
  passAt: z.array(rate),
  checkFailures: z.record(z.string(), count),
  ends: z.partialRecord(z.enum(['agent_ended', 'crashed', 'hung', 'budget_exceeded']), count),
  duplicateEffects: count,
  budgetViolations: count,
  calls: count,
  operations: count,
  attempts: count,
  deliveries: count,
  sends: count,
  faults: count,
  attemptsPerCall: z.strictObject({ mean: z.number().nonnegative(), max: count }),
  amplification: z.number().nonnegative(),
  durationMs: z.strictObject({ p50: z.number().nonnegative(), p95: z.number().nonnegative(), max: z.number().nonnegative() }),
});

const CellSchema = z.strictObject({
  scenario: z.string(),
  config: z.string(),
  status: z.enum(['passed', 'failed']),
  metrics: CellMetricsSchema,
  trials: z.array(TrialSchema),
});

const ConfigSchema = z.strictObject({
  config: z.string(),
  scenarios: count,
  trials: count,
  successes: count,
  passHat: z.array(rate),
  passAt: z.array(rate),
  duplicateEffects: count,
  budgetViolations: count,
  amplification: z.number().nonnegative(),
  failingScenarios: z.array(z.string()),
});

const GateResultSchema = z.strictObject({
  gate: z.string(),
  passed: z.boolean(),
  actual: z.number().nullable(),
  scope: z.strictObject({ level: z.enum(['cell', 'run']), scenario: z.string().optional(), config: z.string().optional(), cells: count }),
  failures: z.array(z.strictObject({ scenario: z.string(), config: z.string(), actual: z.number().nullable() })),
  message: z.string(),
});

export const WallClockSchema = z.strictObject({
  startedAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }),
  durationMs: z.number().nonnegative(),
});
/** Real time the run took: the one part of a report that differs between runs with the same seed. */
export type WallClock = z.infer<typeof WallClockSchema>;

/**
 * The JSON report, version 1. Everything but `wallClock` is a pure function of the run,
 * so two runs with the same seed give byte-identical reports apart from that section.
 */
export const JsonReportSchema = z.strictObject({
  schemaVersion: z.literal(JSON_SCHEMA_VERSION),
  tool: z.literal('faultline'),
  run: z.strictObject({
    seed: z.number().int(),
    k: count,
    scenarios: z.array(z.string()),
    configs: z.array(z.string()),
    interrupted: z.boolean(),
    trials: count,
    failedTrials: count,
  }),
  gates: z.strictObject({ passed: z.boolean(), results: z.array(GateResultSchema) }),
  configs: z.array(ConfigSchema),
  cells: z.array(CellSchema),
  /** `faultline compare --contention`: configurations compared with many agents on one service (added in version 1, optional). */
  contention: z.array(ContentionComparisonSchema).optional(),
  wallClock: WallClockSchema,
});
export type JsonReport = z.infer<typeof JsonReportSchema>;

export interface JsonReportOptions {
  readonly wallClock: WallClock;
  readonly gates: readonly GateResult[];
  /** Which trials carry their full history (default: the failing ones). */
  readonly history?: 'failing' | 'all';
  /** Contention comparisons to carry in the `contention` section. */
  readonly contention?: readonly ContentionComparison[];
}

// Fields are copied one by one so the report's shape is the schema's, not whatever the engine adds later.
const cellMetricsJson = (m: CellMetrics): JsonReport['cells'][number]['metrics'] => ({
  trials: m.trials,
  successes: m.successes,
  passHat: [...m.passHat],
  passAt: [...m.passAt],
  checkFailures: { ...m.checkFailures },
  ends: { ...m.ends },
  duplicateEffects: m.duplicateEffects,
  budgetViolations: m.budgetViolations,
  calls: m.calls,
  operations: m.operations,
  attempts: m.attempts,
  deliveries: m.deliveries,
  sends: m.sends,
  faults: m.faults,
  attemptsPerCall: { mean: m.attemptsPerCall.mean, max: m.attemptsPerCall.max },
  amplification: m.amplification,
  durationMs: { p50: m.durationMs.p50, p95: m.durationMs.p95, max: m.durationMs.max },
});

const configJson = (m: ConfigMetrics): JsonReport['configs'][number] => ({
  config: m.config,
  scenarios: m.scenarios,
  trials: m.trials,
  successes: m.successes,
  passHat: [...m.passHat],
  passAt: [...m.passAt],
  duplicateEffects: m.duplicateEffects,
  budgetViolations: m.budgetViolations,
  amplification: m.amplification,
  failingScenarios: [...m.failingScenarios],
});

function trialJson(t: TrialResult, withHistory: boolean): JsonReport['cells'][number]['trials'][number] {
  return {
    index: t.trialIndex,
    seed: t.seed,
    status: t.status,
    end: { ...t.end },
    failed: t.status === 'failed' ? [...t.failed] : [],
    checks: t.checks.map((c) => ({
      name: c.name,
      verdict: c.verdict.valid === false ? { valid: false, message: c.verdict.message, evidence: [...c.verdict.evidence] } : { ...c.verdict },
    })),
    stats: { ...t.stats },
    replay: replayCommand(t),
    ...(withHistory ? { history: [...t.history] } : {}),
  };
}

const cellJson = (c: Cell, all: boolean): JsonReport['cells'][number] => ({
  scenario: c.scenario,
  config: c.config,
  status: c.trials.every((t) => t.status === 'passed') ? 'passed' : 'failed',
  metrics: cellMetricsJson(c.metrics),
  trials: c.trials.map((t) => trialJson(t, all || t.status === 'failed')),
});

/** The report as a value (not yet validated). */
export function buildJsonReport(run: RunResult, options: JsonReportOptions): JsonReport {
  const trials = run.cells.flatMap((c) => c.trials);
  return {
    schemaVersion: JSON_SCHEMA_VERSION,
    tool: 'faultline',
    run: {
      seed: run.seed,
      k: run.k,
      scenarios: [...run.scenarios],
      configs: [...run.configs],
      interrupted: run.interrupted,
      trials: trials.length,
      failedTrials: trials.filter((t) => t.status === 'failed').length,
    },
    gates: {
      passed: options.gates.every((g) => g.passed),
      results: options.gates.map((g) => ({ ...g, scope: { ...g.scope }, failures: g.failures.map((f) => ({ ...f })) })),
    },
    configs: run.byConfig.map(configJson),
    cells: run.cells.map((c) => cellJson(c, options.history === 'all')),
    ...(options.contention !== undefined && { contention: options.contention.map(contentionJson) }),
    // Last, so everything above it compares byte for byte between runs with the same seed.
    wallClock: { ...options.wallClock },
  };
}

/** The report as text, validated against `JsonReportSchema` before it leaves. */
export function renderJsonReport(run: RunResult, options: JsonReportOptions): string {
  const report = buildJsonReport(run, options);
  const checked = JsonReportSchema.safeParse(report);
  if (!checked.success) {
    throw new FaultlineError(FaultlineErrorCode.Internal, `the JSON report does not match its schema: ${checked.error.message}`, checked.error.issues);
  }
  // The built value is written, not zod's copy: its key order is the one the builder chose.
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Reads a JSON report back (for `faultline merge` and tools); throws `FAULTLINE_USAGE` when it is not one. */
export function parseJsonReport(text: string, source = 'report'): JsonReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new FaultlineError(FaultlineErrorCode.Usage, `${source}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const version = typeof value === 'object' && value !== null && 'schemaVersion' in value ? value.schemaVersion : undefined;
  if (version !== JSON_SCHEMA_VERSION) {
    throw new FaultlineError(FaultlineErrorCode.Usage, `${source}: schemaVersion ${String(version)} is not supported (expected ${JSON_SCHEMA_VERSION})`);
  }
  const parsed = JsonReportSchema.safeParse(value);
  if (!parsed.success) throw new FaultlineError(FaultlineErrorCode.Usage, `${source}: not a faultline JSON report: ${parsed.error.message}`, parsed.error.issues);
  return parsed.data;
}
