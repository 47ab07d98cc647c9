import { parse as parseYaml } from 'yaml';
import { FAULT_KINDS, FaultSchema, type Fault, type FaultKind } from '../faults/fault.js';
import { SWEEP_FAULTS } from './sweepFaultDefaults.js';

export { DEFAULT_SWEEP_FAULTS, SWEEP_FAULTS } from './sweepFaultDefaults.js';
import type { FaultPlan } from '../faults/plan.js';
import { hash32 } from '../core/rng.js';
import { formatIssues } from '../core/zodIssues.js';
import type { Scenario } from '../scenario/scenario.js';
import { overridden } from '../scenario/scenarioOverride.js';
import { AgentCrashTriggerSchema, triggerText, type AgentCrashTrigger } from '../scenario/agentCrash.js';

/** One fault a sweep adds, and how a command line names it again. */
export interface SweepFault {
  readonly fault: Fault;
  /** The `--fault` argument: the kind's name, or the inline fault as one line of JSON (which is YAML too). */
  readonly arg: string;
  /** How reports name it: the kind, with any parameter that is not the default. */
  readonly label: string;
}

export type SweepFaultParse =
  { readonly kind: 'ok'; readonly fault: SweepFault } | { readonly kind: 'error'; readonly message: string };

const isKind = (text: string): text is FaultKind => (FAULT_KINDS as readonly string[]).includes(text);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The report label of a fault: `rate_limit`, or `unavailable(status=502)` when it is not the kind's default. */
export function faultLabel(fault: Fault): string {
  if (same(fault, SWEEP_FAULTS[fault.kind])) return fault.kind;
  const params = Object.entries(fault)
    .filter(([key]) => key !== 'kind')
    .map(([key, value]) => {
      const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
      return `${key}=${scalar ? String(value) : JSON.stringify(value)}`;
    });
  return `${fault.kind}(${params.join(',')})`;
}

/** `--fault rate_limit`, or a whole fault inline in YAML or JSON: `--fault '{kind: rate_limit, retryAfter: 5}'`. */
export function parseSweepFault(text: string): SweepFaultParse {
  const name = text.trim();
  if (isKind(name)) {
    const fault = SWEEP_FAULTS[name];
    return { kind: 'ok', fault: { fault, arg: name, label: name } };
  }
  if (!name.startsWith('{'))
    return {
      kind: 'error',
      message:
        `expected a fault kind (one of: ${FAULT_KINDS.join(', ')}) or a fault inline such as ` +
        `'{kind: unavailable, status: 502}', got "${text}"`,
    };
  let value: unknown;
  try {
    value = parseYaml(name);
  } catch (e) {
    return {
      kind: 'error',
      message: `the inline fault is not YAML or JSON: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
    };
  }
  const parsed = FaultSchema.safeParse(value);
  if (!parsed.success)
    return {
      kind: 'error',
      message: `the inline fault is not a fault: ${formatIssues(parsed.error.issues).join('; ')}`,
    };
  const fault = parsed.data;
  return { kind: 'ok', fault: { fault, arg: JSON.stringify(fault), label: faultLabel(fault) } };
}

/** One curve of a sweep: the faults added at every λ, alone (one kind) or together (`--mix`), and the agent's crash point. */
export interface SweepSeries {
  readonly label: string;
  readonly faults: readonly SweepFault[];
  readonly mix: boolean;
  /** `--crash`: every trial of the series crashes the agent here (`crash.agent`, in place of the scenario's own). */
  readonly crash?: AgentCrashTrigger;
}

export type SweepCrashParse =
  { readonly kind: 'ok'; readonly crash: AgentCrashTrigger } | { readonly kind: 'error'; readonly message: string };

/** `--crash '{afterEffectOf: create_order, nth: 2}'`: a crash point as a scenario's `crash.agent` writes it, inline YAML. */
export function parseSweepCrash(text: string): SweepCrashParse {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (e) {
    return {
      kind: 'error',
      message: `the crash point is not YAML or JSON: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
    };
  }
  const parsed = AgentCrashTriggerSchema.safeParse(value);
  if (!parsed.success)
    return {
      kind: 'error',
      message:
        `expected a crash point as crash.agent takes it, such as '{afterEffectOf: create_order}', ` +
        `'{afterCall: 2}' or '{atMs: 500}': ${formatIssues(parsed.error.issues, ['crash', 'agent']).join('; ')}`,
    };
  return { kind: 'ok', crash: parsed.data };
}

/** A scenario as a series runs it: with the series' crash point in place of its own (carried to workers). */
export const crashedAt = (scenario: Scenario, series: SweepSeries): Scenario =>
  series.crash === undefined ? scenario : overridden(scenario, { crash: { agent: series.crash } });

/** Each series under each crash point (none given: the series as they are), labelled `rate_limit + crash(…)`. */
export function withCrashPoints(series: readonly SweepSeries[], crashes: readonly AgentCrashTrigger[]): SweepSeries[] {
  if (crashes.length === 0) return [...series];
  return series.flatMap((s) =>
    crashes.map((crash) => ({ ...s, label: `${s.label} + crash(${triggerText(crash)})`, crash })),
  );
}

/**
 * One series per fault, or with `mix` a single series of all of them. Refuses a fault named
 * twice (two series under one label).
 */
export function sweepSeries(faults: readonly SweepFault[], mix: boolean): SweepSeries[] | string {
  const labels = faults.map((f) => f.label);
  const twice = labels.find((l, i) => labels.indexOf(l) !== i);
  if (twice !== undefined) return `--fault ${twice} is given twice`;
  if (mix && faults.length > 1) return [{ label: `mix(${labels.join('+')})`, faults, mix: true }];
  return faults.map((f) => ({ label: f.label, faults: [f], mix: false }));
}

/** Which deliveries a sweep's faults hit: the calls' own attempts, or status queries (reconciliation, R21) too. */
export type SweepTarget = 'call' | 'any';

/**
 * The rules a series adds at `lambda`: every delivery of every tool is hit with probability
 * λ. A mixed series splits λ evenly: each of its n kinds hits with probability λ/n, so λ is
 * always the chance that a delivery is faulted and the curves share one axis. Rules are tried
 * in order and the first that matches applies, so the i-th rule (0-based) draws with the
 * conditional probability (λ/n) / (1 - i·λ/n).
 */
export function sweepPlan(series: SweepSeries, lambda: number, target: SweepTarget): FaultPlan {
  const n = series.faults.length;
  const share = lambda / n;
  return series.faults.map((f, i) => ({
    match: { purpose: target, probability: Math.min(1, share / (1 - i * share)) },
    fault: f.fault,
  }));
}

/**
 * The run seed of one point of a sweep: each point's trials get seeds of their own, a
 * function of the sweep seed, the series and λ only (not of the rest of the grid), so one
 * point reruns alone (`--lambda 0.3 --replay`).
 */
export const pointSeed = (seed: number, series: string, lambda: number): number =>
  hash32(`sweep\u0000${seed}\u0000${series}\u0000${lambda}`);
