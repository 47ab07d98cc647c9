import { z } from 'zod';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import { formatIssues } from '../../core/zodIssues.js';
import { FaultSchema } from '../../faults/fault.js';
import { AgentCrashTriggerSchema } from '../../scenario/agentCrash.js';
import { DEFAULT_CONFIDENCE, INTERVAL_METHOD } from '../../stats/intervals.js';
import type { SweepResult } from '../../sweep/runSweep.js';
import type { SweepGates } from '../../sweep/sweepGates.js';
import { unexercised } from '../../stats/coverage.js';
import { sweepNotExercised } from '../../sweep/sweepCoverage.js';
import { configCurves, scenarioCurves, sweepColumnWord, sweepTrialCount, type SweepCurve } from './sweepFigures.js';

/** Bumped on any change a reader of sweep.json would notice. */
export const SWEEP_SCHEMA_VERSION = 3;

const count = z.number().int().nonnegative();
const rate = z.number().min(0).max(1);

const FigureSchema = z.strictObject({
  lambda: rate,
  trials: count,
  successes: count,
  pass1: rate.nullable(),
  /** pass^k at the sweep's k. */
  passK: rate.nullable(),
  /** 95% confidence intervals of pass^1 and pass^k (see `sweep.confidence`). */
  pass1Interval: z.tuple([rate, rate]).nullable(),
  passKInterval: z.tuple([rate, rate]).nullable(),
  failingScenarios: z.array(z.string()),
  /** Reruns one failing trial of this point; null when every trial passed. */
  replay: z.string().nullable(),
  /** Fault rules that fired in no trial of a cell of this point although they had to: 0 when the point is exercised. */
  unexercised: count,
});

/** One rule of one cell at one point: the trials it fired in and its firings (as `metrics.coverage` in faultline.json). */
const RuleCoverageSchema = z.strictObject({
  // -1 is the `crash.agent` trigger (`CRASH_RULE`).
  rule: z.number().int().min(-1),
  label: z.string(),
  mustFire: z.boolean(),
  trials: count,
  firings: count,
});

const CurveSchema = z.strictObject({
  series: z.string(),
  config: z.string(),
  scenario: z.string().optional(),
  points: z.array(FigureSchema),
});

/**
 * `sweep.json`: pass^1 and pass^k against fault intensity λ. A file of its own (faultline.json
 * keeps its schema for its readers). It holds no wall-clock time, so a sweep with the same seed
 * writes the same bytes.
 */
export const SweepJsonSchema = z.strictObject({
  schemaVersion: z.literal(SWEEP_SCHEMA_VERSION),
  tool: z.literal('faultline'),
  sweep: z.strictObject({
    seed: z.number().int(),
    k: count,
    lambdas: z.array(rate),
    /** `call`: the faults hit the calls' own attempts; `any`: status queries too. */
    target: z.enum(['call', 'any']),
    /** `--may-not-fire`: the sweep's own rules were never required to fire. */
    mayNotFire: z.boolean(),
    /** One line per rule that left a cell of a point not exercised (empty when every point was). */
    notExercised: z.array(z.string()),
    scenarios: z.array(z.string()),
    configs: z.array(z.string()),
    /**
     * What `configs` (and every curve's `config`) names: configurations, matrix agents (`agents` in faultline.config.ts),
     * either, or the stand-in's behaviours (as `columnWord` says for a run's cells).
     */
    columns: z.enum(['configuration', 'agent', 'agent or configuration', 'behaviour']),
    interrupted: z.boolean(),
    trials: count,
    /** The confidence of every interval, and how they are made: exact per scenario, a seeded Monte Carlo over several. */
    confidence: rate,
    intervalMethod: z.string(),
    series: z.array(
      z.strictObject({
        label: z.string(),
        /** Mixed: the kinds share λ (each hits with λ / n); otherwise one kind at λ. */
        mix: z.boolean(),
        faults: z.array(FaultSchema),
        /** `--crash`: the agent's crash point in every trial of the series (a scenario's `crash.agent`). */
        crash: AgentCrashTriggerSchema.optional(),
        /**
         * Each point's run seed, derived from the sweep seed, the series and λ; and per cell, how
         * often each rule fired (the scenario's own, then the sweep's), with the rules that left it not exercised.
         */
        points: z.array(
          z.strictObject({
            lambda: rate,
            seed: z.number().int(),
            cells: z.array(
              z.strictObject({
                scenario: z.string(),
                config: z.string(),
                trials: count,
                coverage: z.array(RuleCoverageSchema),
                unexercised: z.array(count),
              }),
            ),
          }),
        ),
      }),
    ),
    /** A curve per series and configuration, each scenario a task for pass^k. */
    byConfig: z.array(CurveSchema),
    /** A curve per series, configuration and scenario. */
    byScenario: z.array(CurveSchema),
  }),
  /** `--gate`: each gate judged at each point up to λ = `upTo` (every point when null), as `faultline run` judges a run. */
  gates: z.strictObject({
    gates: z.array(z.string()),
    upTo: rate.nullable(),
    passed: z.boolean(),
    points: z.array(
      z.strictObject({
        series: z.string(),
        lambda: rate,
        passed: z.boolean(),
        results: z.array(
          z.strictObject({ gate: z.string(), passed: z.boolean(), actual: z.number().nullable(), message: z.string() }),
        ),
      }),
    ),
  }),
});
export type SweepJson = z.infer<typeof SweepJsonSchema>;

const curveJson = (c: SweepCurve): SweepJson['sweep']['byConfig'][number] => ({
  series: c.series,
  config: c.config,
  ...(c.scenario !== undefined && { scenario: c.scenario }),
  points: c.points.map((p) => ({
    ...p,
    pass1Interval: p.pass1Interval && [p.pass1Interval[0], p.pass1Interval[1]],
    passKInterval: p.passKInterval && [p.passKInterval[0], p.passKInterval[1]],
    failingScenarios: [...p.failingScenarios],
  })),
});

export function buildSweepJson(result: SweepResult, gates: SweepGates): SweepJson {
  return {
    schemaVersion: SWEEP_SCHEMA_VERSION,
    tool: 'faultline',
    sweep: {
      seed: result.seed,
      k: result.k,
      lambdas: [...result.lambdas],
      target: result.target,
      mayNotFire: result.mayNotFire,
      notExercised: sweepNotExercised(result),
      scenarios: [...result.scenarios],
      configs: [...result.configs],
      columns: sweepColumnWord(result),
      interrupted: result.interrupted,
      trials: sweepTrialCount(result),
      confidence: DEFAULT_CONFIDENCE,
      intervalMethod: INTERVAL_METHOD,
      series: result.series.map(({ series, points }) => ({
        label: series.label,
        mix: series.mix,
        faults: series.faults.map((f) => f.fault),
        ...(series.crash !== undefined && { crash: series.crash }),
        points: points.map((p) => ({
          lambda: p.lambda,
          seed: p.seed,
          cells: p.run.cells.map((c) => ({
            scenario: c.scenario,
            config: c.config,
            trials: c.metrics.trials,
            coverage: c.metrics.coverage.map((r) => ({
              rule: r.rule,
              label: r.label,
              mustFire: r.mustFire,
              trials: r.trials,
              firings: r.firings,
            })),
            unexercised: unexercised(c.metrics.coverage, c.metrics.trials).map((r) => r.rule),
          })),
        })),
      })),
      byConfig: configCurves(result).map(curveJson),
      byScenario: scenarioCurves(result).map(curveJson),
    },
    gates: {
      gates: [...gates.gates],
      upTo: gates.upTo,
      passed: gates.passed,
      points: gates.points.map((p) => ({
        series: p.series,
        lambda: p.lambda,
        passed: p.passed,
        results: p.results.map((r) => ({ gate: r.gate, passed: r.passed, actual: r.actual, message: r.message })),
      })),
    },
  };
}

/** sweep.json as text, validated against `SweepJsonSchema` before it leaves. */
export function renderSweepJson(result: SweepResult, gates: SweepGates): string {
  const report = buildSweepJson(result, gates);
  const checked = SweepJsonSchema.safeParse(report);
  if (!checked.success)
    throw new FaultlineError(
      FaultlineErrorCode.Internal,
      `sweep.json does not match its schema: ${checked.error.message}`,
      checked.error.issues,
    );
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Whether a parsed JSON value is a sweep report rather than a run's faultline.json. */
export const isSweepJson = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && 'sweep' in value && !('cells' in value);

/** sweep.json read back (`faultline view`): the current schema version only, every problem named with its path. */
export function parseSweepJson(value: unknown, source: string): SweepJson {
  const version =
    typeof value === 'object' && value !== null && 'schemaVersion' in value ? value.schemaVersion : undefined;
  if (version !== SWEEP_SCHEMA_VERSION)
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${source}: sweep.json schemaVersion ${String(version)} is not supported (expected ` +
        `${SWEEP_SCHEMA_VERSION}; run the sweep again to write it)`,
    );
  const parsed = SweepJsonSchema.safeParse(value);
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues);
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${source}: not a faultline sweep report (was it edited?):\n${lines
        .slice(0, 10)
        .map((l) => `  - ${l}`)
        .join('\n')}${lines.length > 10 ? `\n  … and ${lines.length - 10} more` : ''}`,
    );
  }
  return parsed.data;
}
