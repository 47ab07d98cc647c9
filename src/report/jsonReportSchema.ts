// The JSON report's schema: what `faultline run` writes (renderJsonReport) and `merge` reads back (parseJsonReport).
import { z } from 'zod';
import { AGENT_OUTCOMES, type HistoryEvent } from '../core/index.js';
import { INTERVAL_METHOD } from '../stats/intervals.js';

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
 * `stats.tokens.cached`; `run.stopped` when `--max-cost` or the CLI's own process death ended the run.
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
 * Added within version 7 (optional when read, always written): each configuration's `durationMs`
 * (p50, p95, max over all its trials) and `tokens`; a priced cell's `metrics.costPerTrial`. Every
 * interval, quantile, rate and cost in the report is computed once, by the engine (src/stats), into
 * the run result the report is written from; a report read back recomputes them from the counts.
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
  z.strictObject({
    kind: z.literal('budget_exceeded'),
    limit: z.enum(['turns', 'tool_calls', 'time']),
    at: z.number(),
  }),
  z.strictObject({ kind: z.literal('infra_error'), message: z.string() }),
]);

const count = z.number().int().nonnegative();
/** A coverage rule: an index of the fault plan, or -1 for the `crash.agent` trigger (`CRASH_RULE`). */
const ruleIndex = z.number().int().min(-1);
const rate = z.number().min(0).max(1);

/**
 * Confidence intervals beside the pass^k and pass@k points, `[lower, upper]` at each k = 1..n
 * (added in version 2, optional when read, always written): exact Clopper–Pearson per scenario,
 * and over a configuration's scenarios a seeded Monte Carlo over each one's bounding Betas.
 * The engine computes them from `trials` and `successes`; a reader that recomputes gets the same.
 */
export const IntervalsSchema = z
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
  .describe(
    "Model tokens in and out, from the answers' usage fields; the scripted model's are an estimate (ceil(chars / 4))",
  );

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
  firings: z.array(z.tuple([ruleIndex, count])),
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
  coverage: z.array(
    z.strictObject({ rule: ruleIndex, label: z.string(), mustFire: z.boolean(), trials: count, firings: count }),
  ),
  attemptsPerCall: z.strictObject({ mean: z.number().nonnegative(), max: count }),
  amplification: z.number().nonnegative(),
  tokens: TokensSchema,
  /** What the cell's model answers cost (infra errors included), from the price table; absent when the model has no price. */
  cost: z.number().nonnegative().optional(),
  /** `cost` over the trials run, infra errors included (added within version 7; absent with `cost`). */
  costPerTrial: z.number().nonnegative().optional(),
  /** The trials' completion times in ms: virtual time, or wall time for a cell whose `clock` is `real`. */
  durationMs: z.strictObject({
    p50: z.number().nonnegative(),
    p95: z.number().nonnegative(),
    max: z.number().nonnegative(),
  }),
  /** Every completion time as `[ms, trials]`, by ms (virtual, or wall time when the cell's `clock` is `real`). */
  durations: z.array(z.tuple([z.number().nonnegative(), count])),
  /** A many-agent scenario's figures over its trials (agents > 1). */
  crowd: z
    .strictObject({
      agents: count,
      succeeded: count,
      successRate: rate,
      completionMs: z.strictObject({
        p50: z.number().nonnegative(),
        p95: z.number().nonnegative(),
        max: z.number().nonnegative(),
      }),
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
      /**
       * Virtual ms from the heal to the goal over every trial judged, a trial that never got there ranked last: null
       * when the quantile falls among those.
       */
      timeToRecoverMs: z.strictObject({
        p50: z.number().nonnegative().nullable(),
        p95: z.number().nonnegative().nullable(),
        max: z.number().nonnegative().nullable(),
      }),
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
  /** `behaviour`: the stand-in's behaviour a run's `--behaviour` gave the cell (a replay repeats it). */
  refs: z.strictObject({
    scenario: z.string(),
    config: z.string(),
    agent: z.string().optional(),
    behaviour: z.string().optional(),
  }),
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
  /**
   * Completion times over every trial of every scenario, as each cell's `durationMs` (added within version 7:
   * optional when read, always written).
   */
  durationMs: z
    .strictObject({ p50: z.number().nonnegative(), p95: z.number().nonnegative(), max: z.number().nonnegative() })
    .optional(),
  /** Model tokens in and out over the scenarios (added within version 7: optional when read, always written). */
  tokens: z.strictObject({ input: count, output: count }).optional(),
});

const GateResultSchema = z.strictObject({
  gate: z.string(),
  passed: z.boolean(),
  actual: z.number().nullable(),
  scope: z.strictObject({
    level: z.enum(['cell', 'run']),
    scenario: z.string().optional(),
    config: z.string().optional(),
    cells: count,
  }),
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
    /**
     * Why the run stopped early when no signal stopped it: `--max-cost` reached (`spent` in the price table's currency),
     * or the CLI's own process died running agent code (`--workers 0`), in `trial` when one was running.
     */
    stopped: z
      .discriminatedUnion('reason', [
        z.strictObject({
          reason: z.literal('max-cost'),
          limit: z.number().positive(),
          spent: z.number().nonnegative(),
        }),
        z.strictObject({ reason: z.literal('process-died'), cause: z.string(), trial: z.string().optional() }),
      ])
      .optional(),
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
