import { z } from 'zod';
import { formatIssues } from '../core/zodIssues.js';
import { AGENT_OUTCOMES, FaultlineError, FaultlineErrorCode, type HistoryEvent } from '../core/index.js';
import type { TrialEnd } from '../checks/record.js';
import type { GateResult } from '../stats/gates.js';
import type { CellMetrics, ConfigMetrics } from '../stats/metrics.js';
import { finishRun, type Cell, type RunResult } from '../runner/run.js';
import type { TrialSummary } from '../runner/trial.js';
import { INTERVAL_METHOD, proportionInterval, type PassIntervalCurves } from '../stats/intervals.js';
import { cellIntervals, configIntervals } from '../stats/rateIntervals.js';
import { replayCommand } from '../runner/replay.js';
import { runCost } from '../stats/runCost.js';

/**
 * Bumped on any change a reader of the JSON report would notice. Version 2: cells keep the
 * first failing trials in full and summarise every trial in `verdicts`; metrics carry their
 * `durations`, so shard reports merge exactly; `run` says `keepFailures` and its `shard`.
 * Version 3: a many-agent scenario's trials and cells carry `crowd` figures (per-agent success,
 * completion time, throttling, load over time); the separate `contention` section is gone.
 * Version 4: fault coverage. Each trial's `stats.firings` counts fault events per rule, each
 * cell's `metrics.coverage` lists every rule of its plan with the trials it fired in and its
 * firings (a rule that fired in none leaves the cell not exercised, and the `unexercised` gate fails).
 * Version 5: live runs. Trials may end `infra-error` (the model provider failed, not the agent:
 * out of pass^k, counted in `metrics.infraErrors`), carry their `recording`, `model` and `cost`;
 * `stats.tokens.cached`; `run.stopped` when `--max-cost` ended the run.
 * Version 6: the agents matrix. A cell's `config` is its label, what varies between its columns:
 * a configuration's name, or a matrix agent's (`agents` in faultline.config.ts); `refs.agent`
 * names the agent, `refs.config` the configuration it ran under.
 * Version 7: goodput over time, heal and recovery. A many-agent trial's and cell's `crowd`
 * figures carry `goodput` beside `load`: the agents' calls that succeeded, per bin of the same
 * width. A scenario with `heal` and `recovery` has `stats.recovery` on its trials (time to
 * recover, calls after the heal) and `metrics.recovery` on its cells (trials recovered, the rate
 * and its interval, time-to-recover quantiles and counts); histories may hold a `heal` event,
 * and `lie` events (a fault that answered 2xx with what the world did not hold; a duplicate's
 * verdict names it in `evidence.causedBy`). Live and recorded trials shown in full carry
 * `exchanges`: the messages sent to the model and its answers, scrubbed of secrets.
 */
export const JSON_SCHEMA_VERSION = 7;

const VerdictSchema = z.union([
  z.strictObject({ valid: z.literal(true) }),
  z.strictObject({ valid: z.literal(false), message: z.string(), evidence: z.array(z.unknown()) }),
  z.strictObject({ valid: z.literal('unknown'), message: z.string() }),
]);

const TrialEndSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('agent_ended'), outcome: z.enum(AGENT_OUTCOMES) }),
  z.strictObject({ kind: z.literal('crashed'), message: z.string() }),
  z.strictObject({ kind: z.literal('hung'), at: z.number(), message: z.string().optional() }),
  z.strictObject({ kind: z.literal('budget_exceeded'), limit: z.enum(['turns', 'tool_calls', 'time']), at: z.number() }),
  z.strictObject({ kind: z.literal('infra_error'), message: z.string() }),
]);

const count = z.number().int().nonnegative();
const rate = z.number().min(0).max(1);

/**
 * Confidence intervals beside the pass^k and pass@k points, `[lower, upper]` at each k = 1..n
 * (added in version 2, optional when read, always written): exact Clopper–Pearson per scenario,
 * and over a configuration's scenarios a seeded Monte Carlo over each one's bounding Betas.
 */
const IntervalsSchema = z
  .strictObject({
    confidence: z.number().gt(0).lt(1),
    method: z.literal(INTERVAL_METHOD),
    passHat: z.array(z.tuple([rate, rate])),
    passAt: z.array(z.tuple([rate, rate])),
  })
  .describe('Two-sided confidence intervals [lower, upper] for passHat and passAt at each k');

/**
 * Model tokens in (prompt) and out (completion), from the model answers' `usage` fields (R31):
 * a real or recorded model's counts; for the scripted model an estimate, `ceil(chars / 4)` of
 * the request's messages and of the answer, so the figures are deterministic but not a tokenizer's.
 */
const TokensSchema = z
  .strictObject({ input: count, output: count, cached: count.optional() })
  .describe("Model tokens in and out, from the answers' usage fields; the scripted model's are an estimate (ceil(chars / 4))");

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
  /** Fault events per rule of the plan, as `[rule, firings]`, by rule. */
  firings: z.array(z.tuple([count, count])),
  tokens: TokensSchema,
  durationMs: z.number().nonnegative(),
  /** A many-agent trial's figures (agents > 1). */
  crowd: z
    .strictObject({
      agents: count,
      succeeded: count,
      completionMs: z.array(z.tuple([z.number().nonnegative(), count])),
      throttled: z.strictObject({ responses: count, ms: z.number().nonnegative() }),
      maxSendsPerOperation: count,
      load: z.array(count),
      goodput: z.array(count),
    })
    .optional(),
  /** A scenario with heal and recovery: virtual ms from the heal to the goal (null: never reached), tool calls started after it. */
  recovery: z.strictObject({ timeToRecoverMs: z.number().nonnegative().nullable(), callsAfter: count }).optional(),
});

const EventStampSchema = z.looseObject({ seq: count, t: z.number().nonnegative(), type: z.string() });
/** History events are kept as the engine recorded them; only their stamp is checked here. */
const HistoryEventSchema = z.custom<HistoryEvent>((v) => EventStampSchema.safeParse(v).success, {
  message: 'expected a history event with seq, t and type',
});

const TrialSchema = z.strictObject({
  index: count,
  seed: z.number().int(),
  /** `infra-error`: the real model provider failed on its own (`--live`); not judged, left out of pass^k. */
  status: z.enum(['passed', 'failed', 'infra-error']),
  end: TrialEndSchema,
  /** Checkers that did not pass (empty when the trial passed). */
  failed: z.array(z.string()),
  /** A live trial's recording of its model exchanges: `replay` answers from it, offline. */
  recording: z.string().optional(),
  /** The model priced, and what the trial's answers cost (absent when it has no price). */
  model: z.string().optional(),
  cost: z.number().nonnegative().optional(),
  checks: z.array(z.strictObject({ name: z.string(), verdict: VerdictSchema })),
  stats: TrialStatsSchema,
  replay: z.string(),
  /** A live trial's model exchanges, with its history: the messages sent since the model last spoke, and its answer and tool calls. */
  exchanges: z
    .array(
      z.strictObject({
        sent: z.array(z.strictObject({ role: z.string(), text: z.string() })),
        status: z.number().int(),
        answer: z.string(),
        toolCalls: z.array(z.strictObject({ name: z.string(), arguments: z.string() })),
      }),
    )
    .optional(),
  /** Present for failing trials, or for all with `history: 'all'`. */
  history: z.array(HistoryEventSchema).optional(),
});

const CellMetricsSchema = z.strictObject({
  trials: count,
  successes: count,
  passHat: z.array(rate),
  passAt: z.array(rate),
  intervals: IntervalsSchema.optional(),
  checkFailures: z.record(z.string(), count),
  ends: z.partialRecord(z.enum(['agent_ended', 'crashed', 'hung', 'budget_exceeded']), count),
  /** Trials the real model provider failed on its own (`--live`), beside `trials`: not judged, not in pass^k. Absent when none. */
  infraErrors: count.optional(),
  duplicateEffects: count,
  budgetViolations: count,
  calls: count,
  operations: count,
  attempts: count,
  deliveries: count,
  sends: count,
  faults: count,
  /** Every rule of the cell's fault plan: `faults[rule]`, what it matches, whether it must fire, the trials it fired in and its firings. */
  coverage: z.array(z.strictObject({ rule: count, label: z.string(), mustFire: z.boolean(), trials: count, firings: count })),
  attemptsPerCall: z.strictObject({ mean: z.number().nonnegative(), max: count }),
  amplification: z.number().nonnegative(),
  tokens: TokensSchema,
  /** What the cell's model answers cost (infra errors included), from the price table; absent when the model has no price. */
  cost: z.number().nonnegative().optional(),
  /** The trials' completion times in ms: virtual time, or wall time for a cell whose `clock` is `real`. */
  durationMs: z.strictObject({ p50: z.number().nonnegative(), p95: z.number().nonnegative(), max: z.number().nonnegative() }),
  /** Every completion time as `[ms, trials]`, by ms (virtual, or wall time when the cell's `clock` is `real`). */
  durations: z.array(z.tuple([z.number().nonnegative(), count])),
  /** A many-agent scenario's figures over its trials (agents > 1). */
  crowd: z
    .strictObject({
      agents: count,
      succeeded: count,
      successRate: rate,
      completionMs: z.strictObject({ p50: z.number().nonnegative(), p95: z.number().nonnegative(), max: z.number().nonnegative() }),
      /** Every agent's completion time as `[ms, agents]`, by ms. */
      completions: z.array(z.tuple([z.number().nonnegative(), count])),
      throttled: z.strictObject({ responses: count, ms: z.number().nonnegative() }),
      maxSendsPerOperation: count,
      loadBinMs: z.number().positive(),
      /** Deliveries per bin from the trial's start, summed over the cell's trials. */
      load: z.array(count),
      /** Calls that succeeded per bin, summed over the cell's trials. */
      goodput: z.array(count),
    })
    .optional(),
  /** A scenario with heal and recovery: how its trials came back once the faults ended. */
  recovery: z
    .strictObject({
      /** Trials judged, and those that passed the recovery checker. */
      trials: count,
      recovered: count,
      rate,
      /** The rate's two-sided exact (Clopper–Pearson) interval at 95%, as a `recovery@95%` gate bounds it. */
      interval: z.tuple([rate, rate]).optional(),
      /** Virtual ms from the heal to the goal over every trial judged, a trial that never got there ranked last: null when the quantile falls among those. */
      timeToRecoverMs: z.strictObject({ p50: z.number().nonnegative().nullable(), p95: z.number().nonnegative().nullable(), max: z.number().nonnegative().nullable() }),
      /** The times of the trials that reached their goal, as `[ms, trials]`, by ms. */
      times: z.array(z.tuple([z.number().nonnegative(), count])),
      /** Trials that never reached their goal. */
      never: count,
      /** Tool calls started after the heal, over the trials. */
      callsAfter: count,
    })
    .optional(),
});

const VerdictGroupSchema = z.strictObject({
  status: z.enum(['passed', 'failed', 'infra-error']),
  failed: z.array(z.string()),
  /** How the group's first trial ended. */
  end: TrialEndSchema,
  trials: count,
  first: count,
  /** Reproduces the group's first trial. */
  replay: z.string(),
});

const CellSchema = z.strictObject({
  scenario: z.string(),
  /** The cell's label: the configuration's name, or the matrix agent's when the agent is what varies. */
  config: z.string(),
  /** How a command line names the scenario, the configuration and the matrix agent (`--agent`). */
  refs: z.strictObject({ scenario: z.string(), config: z.string(), agent: z.string().optional() }),
  /**
   * `real` when the cell's trials ran on the wall clock (a `command` agent): its `durationMs`,
   * `durations` and the histories' `t` are then real milliseconds. Absent: virtual time.
   */
  clock: z.literal('real').optional(),
  status: z.enum(['passed', 'failed']),
  metrics: CellMetricsSchema,
  /** Every trial, grouped by how it ended. */
  verdicts: z.array(VerdictGroupSchema),
  /** The trials kept in full: the first `run.keepFailures` failing ones (every trial when that is null). */
  trials: z.array(TrialSchema),
  /** Failed trials not kept in `trials`; counted in `metrics` and `verdicts`. */
  elided: count,
});

const ConfigSchema = z.strictObject({
  config: z.string(),
  scenarios: count,
  trials: count,
  successes: count,
  passHat: z.array(rate),
  passAt: z.array(rate),
  intervals: IntervalsSchema.optional(),
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
  failures: z.array(
    z.strictObject({
      scenario: z.string(),
      config: z.string(),
      actual: z.number().nullable(),
      /** A gate on a bound: `actual` is the bound, this the point estimate. */
      estimate: z.number().nullable().optional(),
      /** The estimate holds and the bound does not: the trials per cell that would decide it (null: none would). */
      undecided: z.strictObject({ trials: count, needs: count.nullable() }).optional(),
    }),
  ),
  message: z.string(),
  /** A gate on a bound (`pass^4>=0.9@95%`): the interval's confidence. */
  confidence: z.number().gt(0).lt(1).optional(),
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
    /** Why the run stopped early when no signal stopped it: `--max-cost` reached (`spent` in the price table's currency). */
    stopped: z.strictObject({ reason: z.literal('max-cost'), limit: z.number().positive(), spent: z.number().nonnegative() }).optional(),
    /** What the model answers cost over the run, when its models have prices. */
    cost: z.number().nonnegative().optional(),
    trials: count,
    failedTrials: count,
    /** Trials the real model provider failed on its own (`--live`), not in `trials`. Absent when none. */
    infraErrors: count.optional(),
    keepFailures: count.nullable(),
    /** Present in a shard's report: which slice of the matrix it ran. */
    shard: z.strictObject({ index: z.number().int().positive(), count: z.number().int().positive() }).optional(),
  }),
  gates: z.strictObject({ passed: z.boolean(), results: z.array(GateResultSchema) }),
  configs: z.array(ConfigSchema),
  cells: z.array(CellSchema),
  wallClock: WallClockSchema,
});
export type JsonReport = z.infer<typeof JsonReportSchema>;

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
  intervals: intervalsJson(cellIntervals(m)),
  checkFailures: { ...m.checkFailures },
  ends: { ...m.ends },
  ...(m.infraErrors !== undefined && { infraErrors: m.infraErrors }),
  ...(m.cost !== undefined && { cost: m.cost }),
  duplicateEffects: m.duplicateEffects,
  budgetViolations: m.budgetViolations,
  calls: m.calls,
  operations: m.operations,
  attempts: m.attempts,
  deliveries: m.deliveries,
  sends: m.sends,
  faults: m.faults,
  coverage: m.coverage.map((r) => ({ rule: r.rule, label: r.label, mustFire: r.mustFire, trials: r.trials, firings: r.firings })),
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
      ...(m.recovery.trials > 0 && { interval: [...proportionInterval(m.recovery.recovered, m.recovery.trials)] as [number, number] }),
      timeToRecoverMs: { ...m.recovery.timeToRecoverMs },
      times: m.recovery.times.map(([ms, n]) => [ms, n]),
      never: m.recovery.never,
      callsAfter: m.recovery.callsAfter,
    },
  }),
});

const configJson = (run: RunResult, m: ConfigMetrics): JsonReport['configs'][number] => ({
  config: m.config,
  scenarios: m.scenarios,
  trials: m.trials,
  successes: m.successes,
  passHat: [...m.passHat],
  passAt: [...m.passAt],
  intervals: intervalsJson(configIntervals(run, m.config)),
  duplicateEffects: m.duplicateEffects,
  budgetViolations: m.budgetViolations,
  amplification: m.amplification,
  failingScenarios: [...m.failingScenarios],
});

function statsJson(s: TrialSummary['stats']): JsonReport['cells'][number]['trials'][number]['stats'] {
  const { crowd, recovery, ...rest } = s;
  return {
    ...rest,
    firings: s.firings.map(([rule, n]) => [rule, n]),
    tokens: { ...s.tokens },
    ...(crowd && { crowd: { ...crowd, completionMs: crowd.completionMs.map(([ms, n]) => [ms, n]), throttled: { ...crowd.throttled }, load: [...crowd.load], goodput: [...crowd.goodput] } }),
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
      verdict: c.verdict.valid === false ? { valid: false, message: c.verdict.message, evidence: [...c.verdict.evidence] } : { ...c.verdict },
    })),
    stats: statsJson(t.stats),
    replay: replayCommand(t),
    ...(withHistory ? { history: [...t.history] } : {}),
    ...(withHistory && t.exchanges && { exchanges: t.exchanges.map((e) => ({ sent: e.sent.map((m) => ({ ...m })), status: e.status, answer: e.answer, toolCalls: e.toolCalls.map((c) => ({ ...c })) })) }),
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
    replay: replayCommand({ scenario: c.scenario, config: c.config, runSeed: run.seed, trialIndex: g.first, refs: c.refs }),
  })),
  trials: c.trials.map((t) => trialJson(t, all || t.status === 'failed')),
  elided: c.elided,
});

/** The report as a value (not yet validated). */
export function buildJsonReport(run: RunResult, options: JsonReportOptions): JsonReport {
  const trials = run.cells.reduce((a, c) => a + c.metrics.trials, 0);
  const failedTrials = trials - run.cells.reduce((a, c) => a + c.metrics.successes, 0);
  const infraErrors = run.cells.reduce((a, c) => a + (c.metrics.infraErrors ?? 0), 0);
  const cost = runCost(run);
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
      results: options.gates.map((g) => ({ ...g, scope: { ...g.scope }, failures: g.failures.map((f) => ({ ...f, ...(f.undecided && { undecided: { ...f.undecided } }) })) })),
    },
    configs: run.byConfig.map((m) => configJson(run, m)),
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
    throw new FaultlineError(FaultlineErrorCode.Internal, `the JSON report does not match its schema: ${checked.error.message}`, checked.error.issues);
  }
  // The built value is written, not zod's copy: its key order is the one the builder chose.
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * The run a report describes, as reporters and gates take it: what `faultline merge` combines.
 * Kept trials come back with their history when the report carried it (failing trials always).
 */
// zod types the optional agent as possibly undefined; a parsed report never holds one.
const refsOf = (r: JsonReport['cells'][number]['refs']): Cell['refs'] => ({ scenario: r.scenario, config: r.config, ...(r.agent !== undefined && { agent: r.agent }) });

export function runFromJsonReport(report: JsonReport): RunResult {
  // zod types an optional key as possibly undefined; a parsed report never holds one.
  const endOf = (end: JsonReport['cells'][number]['verdicts'][number]['end']): TrialEnd => end as TrialEnd;
  const cells = report.cells.map(
    (c): Cell => ({
      scenario: c.scenario,
      config: c.config,
      refs: refsOf(c.refs),
      ...(c.clock === 'real' && { clock: 'real' as const }),
      trials: c.trials.map((t): TrialSummary => {
        const { crowd, recovery, ...rest } = t.stats;
        const { cached, ...tokens } = rest.tokens;
        // Replaced in place, so the keys keep the order the writer gave them (the round trip is byte-exact).
        const stats = { ...rest, tokens: { ...tokens, ...(cached !== undefined && { cached }) } };
        const common = { scenario: c.scenario, config: c.config, trialIndex: t.index, seed: t.seed, history: t.history ?? [], end: endOf(t.end), runSeed: report.run.seed, refs: refsOf(c.refs), checks: t.checks, stats: { ...stats, ...(crowd && { crowd }), ...(recovery && { recovery }) } };
        const withRecording = { ...common, ...(t.recording !== undefined && { recording: t.recording }), ...(t.model !== undefined && { model: t.model }), ...(t.cost !== undefined && { cost: t.cost }), ...(t.exchanges && { exchanges: t.exchanges }) };
        if (t.status === 'infra-error') return { ...withRecording, status: 'infra-error', message: t.end.kind === 'infra_error' ? t.end.message : 'the model provider failed' };
        return t.status === 'failed' ? { ...withRecording, status: 'failed', failed: t.failed } : { ...withRecording, status: 'passed' };
      }),
      verdicts: c.verdicts.map(({ replay: _replay, ...g }) => ({ ...g, end: endOf(g.end) })),
      elided: c.elided,
      metrics: (({ crowd, infraErrors, cost, recovery, ...m }) => ({
        ...m,
        ...(crowd && { crowd }),
        ...(infraErrors !== undefined && { infraErrors }),
        ...(cost !== undefined && { cost }),
        // The interval is written for readers; the engine recomputes it from the counts.
        ...(recovery && { recovery: (({ interval: _interval, ...r }) => r)(recovery) }),
      }))(c.metrics),
    }),
  );
  return finishRun({
    seed: report.run.seed,
    k: report.run.k,
    scenarios: report.run.scenarios,
    configs: report.run.configs,
    cells,
    interrupted: report.run.interrupted,
    ...(report.run.stopped && { stopped: report.run.stopped }),
    keepFailures: report.run.keepFailures,
    ...(report.run.shard && { shard: report.run.shard }),
  });
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
  // sweep.json is another report: say which file reads it rather than call its version unsupported.
  if (typeof value === 'object' && value !== null && 'sweep' in value && !('cells' in value)) {
    throw new FaultlineError(FaultlineErrorCode.Usage, `${source}: a sweep report (sweep.json, schemaVersion ${String(version)}), not a run's faultline.json: merge reads the reports of "faultline run" (faultline view draws a sweep.json as sweep.html)`);
  }
  if (version !== JSON_SCHEMA_VERSION) {
    throw new FaultlineError(FaultlineErrorCode.Usage, `${source}: schemaVersion ${String(version)} is not supported (expected ${JSON_SCHEMA_VERSION})`);
  }
  const parsed = JsonReportSchema.safeParse(value);
  if (!parsed.success) {
    // One line per problem with its path, as for a scenario: zod's own message is a JSON dump.
    const lines = formatIssues(parsed.error.issues);
    const shown = lines.slice(0, 10);
    const more = lines.length > shown.length ? `\n  … and ${lines.length - shown.length} more` : '';
    throw new FaultlineError(FaultlineErrorCode.Usage, `${source}: not a faultline JSON report (was it edited?):\n${shown.map((l) => `  - ${l}`).join('\n')}${more}`, { source, issues: lines });
  }
  return parsed.data;
}
