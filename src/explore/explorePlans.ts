import fc from 'fast-check';
import { canonicalJson, FaultlineError, FaultlineErrorCode, sha256, VirtualClock } from '../core/index.js';
import type { FaultPlan } from '../faults/plan.js';
import { ruleLabel } from '../faults/ruleLabel.js';
import type { ExecutionConfigLike } from '../runtime/executionConfig.js';
import { checkersOf, runTrial, summarise, type TrialSummary } from '../runner/trial.js';
import type { Scenario } from '../runner/scenario.js';
import { MODEL_OPERATIONS } from '../faults/http/model/modelOperations.js';
import { withOverride, type ScenarioOverride } from '../runner/scenarioOverride.js';
import { BUILTIN_SERVICES, createWorld } from '../world/createWorld.js';
import { faultPlanArbitrary } from './faultPlanArbitrary.js';

/**
 * Under a generated plan the goal may simply be out of reach (a permanent 403 on the only
 * write): explore asks whether the agent stayed safe and honest, not whether it finished.
 * A crash is judged apart (see `judge`).
 */
export const NOT_JUDGED_BY_DEFAULT = ['goal-state'] as const;

export interface ExploreOptions {
  readonly scenario: Scenario;
  readonly config: ExecutionConfigLike;
  /** Plans to try (fast-check's `numRuns`). */
  readonly runs: number;
  /** The explore seed: fast-check's seed, and every trial's run seed. */
  readonly seed: number;
  /** Wall-clock milliseconds before fast-check stops trying new plans (its `interruptAfterTimeLimit`). */
  readonly timeLimitMs?: number;
  /** fast-check's replay path of an earlier failure: starts there instead of searching. */
  readonly path?: string;
  /** Run the generated plan instead of the scenario's own faults (default: after them). */
  readonly replaceFaults?: boolean;
  /** The checkers that decide (default: the scenario's, but `goal-state`). */
  readonly checks?: readonly string[];
  /** Aborted (Ctrl-C): no new trial starts, and the search ends as `held`, `interrupted`. */
  readonly signal?: AbortSignal;
  /** Called before each trial: `searching` plans so far, or `shrinking` steps so far. */
  readonly onPlan?: (phase: 'searching' | 'shrinking', count: number) => void;
  /**
   * Runs one candidate's trial 0 (the scenario with `override`) under the explore seed; resolves
   * to `undefined` when it was stopped (a signal). Default: here, with `runTrial`; the CLI runs
   * them on a worker thread, isolated as `run` isolates trials.
   */
  readonly trial?: ExploreTrial;
}

/** How explore runs one candidate plan's trial. */
export type ExploreTrial = (override: ScenarioOverride) => Promise<TrialSummary | undefined>;

/** Explore's trials in this process, one after another. */
export const trialsInProcess =
  (scenario: Scenario, config: ExecutionConfigLike, seed: number, refs?: { readonly scenario: string; readonly config: string }): ExploreTrial =>
  async (override) =>
    summarise(await runTrial({ scenario: withOverride(scenario, override), config, runSeed: seed, trialIndex: 0, ...(refs && { refs }) }), true);

/** How often one generated rule fired in its plan's trial. */
export interface PlanRuleFirings {
  /** Its index in the generated plan (the trial's `faults[offset + rule]`). */
  readonly rule: number;
  readonly label: string;
  readonly firings: number;
}

/**
 * One searched plan's trial: which of the plan's rules fired. A plan none of whose rules fired
 * met no fault of its own: its trial is not evidence either way.
 */
export interface PlanCoverage {
  /** 1, 2, … in the order fast-check tried them (shrink steps are not counted). */
  readonly plan: number;
  readonly rules: readonly PlanRuleFirings[];
  /** The trial failed the judged checks. */
  readonly failed: boolean;
}

/** Whether a plan's trial met its faults: `every` rule fired, `some` did, or `none`. */
export type PlanExercise = 'every' | 'some' | 'none';
export const planExercise = (c: Pick<PlanCoverage, 'rules'>): PlanExercise => {
  const fired = c.rules.filter((r) => r.firings > 0).length;
  return fired === 0 ? 'none' : fired === c.rules.length ? 'every' : 'some';
};

interface ExploreCommon {
  readonly scenario: Scenario;
  readonly config: ExecutionConfigLike;
  readonly seed: number;
  /** Plans fast-check tried before it stopped or found a failure. */
  readonly runs: number;
  readonly checks: readonly string[];
  /** Each searched plan's coverage, in order (a failure's shrink steps aside). */
  readonly plans: readonly PlanCoverage[];
  /** Model routes the scenario's own trial streamed, on which stream faults were generated. */
  readonly streamed: readonly string[];
}

/**
 * `held`: no plan failed (`interrupted`: the time limit cut the search short); `baseline_failed`:
 * the scenario fails with no added fault, so there is nothing to find; `failed`: a plan failed,
 * shrunk to `plan`, and `scenario` is the regression scenario whose trial 0 is `trial`.
 */
export type ExploreResult =
  | (ExploreCommon & { readonly kind: 'held'; readonly interrupted: boolean })
  | (ExploreCommon & { readonly kind: 'baseline_failed'; readonly trial: FailedTrialResult })
  | (ExploreCommon & {
      readonly kind: 'failed';
      /**
       * The shrunk plan fast-check found (the regression's faults are the scenario's own, then
       * these). A rule of it that did not fire in the failing trial (kept because removing it
       * changed the trial's draws) says `expect: may-not-fire`; at least one rule fired.
       */
      readonly plan: FaultPlan;
      /** How often each rule of `plan` fired in the failing trial. */
      readonly fired: readonly PlanRuleFirings[];
      readonly regression: Scenario;
      readonly trial: FailedTrialResult;
      readonly shrinks: number;
      /** fast-check's replay path: `explore --seed S --path P` starts at this counterexample. */
      readonly path: string;
    });
export type ExploreResultKind = ExploreResult['kind'];
export type FailedTrialResult = Extract<TrialSummary, { status: 'failed' }>;

/**
 * The tools a plan aims at: those the scenario names (its script, its own faults), else every
 * tool of its services; and the routes of the scenario's model, if it serves one
 * (`model:openai.chat.completions`…), whose faults an agent meets as much as its tools'.
 */
export function toolsToAim(scenario: Scenario): string[] {
  const world = createWorld(new VirtualClock(0), scenario.world, scenario.services ?? BUILTIN_SERVICES);
  const all = world.tools.map((t) => t.name);
  const models = scenario.model ? MODEL_OPERATIONS[scenario.model.api] : [];
  const named = new Set<string>();
  const steps = [...(scenario.agent.kind === 'scripted' ? scenario.agent.plan.steps : []), ...(scenario.model?.plan?.steps ?? [])];
  for (const step of steps) {
    named.add(step.tool);
    if (step.poll) named.add(step.poll.tool);
  }
  for (const rule of scenario.faults) for (const t of [rule.match.tool ?? []].flat()) named.add(t);
  const aimed = all.filter((t) => named.has(t));
  return [...(aimed.length > 0 ? aimed : all), ...models];
}

/**
 * The model routes whose answers a trial streamed (the agent asked with `stream: true`): stream
 * faults can strike only those, so explore aims them there, read from the scenario's own trial.
 */
export function streamedRoutes(trial: Pick<TrialSummary, 'history'>): string[] {
  const routes = new Set<string>();
  for (const e of trial.history) if (e.type === 'response' && e.stream !== undefined && e.tool.startsWith('model:')) routes.add(e.tool);
  return [...routes].sort();
}

/** How often each rule of `plan` fired in a trial whose plan puts it after `offset` rules. */
export function planFirings(plan: FaultPlan, offset: number, trial: Pick<TrialSummary, 'stats'>): PlanRuleFirings[] {
  const byRule = new Map(trial.stats.firings);
  return plan.map((r, rule) => ({ rule, label: ruleLabel(r), firings: byRule.get(offset + rule) ?? 0 }));
}

/**
 * `<scenario>-regression-<hash>`, the hash of the configuration and the seed: every plan of one
 * exploration runs under this name, so under one trial seed (it is hashed from the scenario's
 * name). Were the name to change with the plan, removing a rule that never fires would change
 * every probability's draw, and shrinking would stop early.
 */
export function regressionName(scenario: Scenario, config: ExecutionConfigLike, seed: number): string {
  return `${scenario.name}-regression-${sha256(canonicalJson({ config: config.name, seed })).slice(0, 8)}`;
}

/**
 * The regression file's name: `<scenario>-regression-<hash>`, the hash of the configuration, the
 * seed, the plan's rules and the checks the search judged by, so two plans never share a file. Its trials keep the search's
 * seed through `seedName` (see `regressionName`).
 */
export function regressionFileName(scenario: Scenario, config: ExecutionConfigLike, seed: number, faults: FaultPlan, checks: readonly string[]): string {
  return `${scenario.name}-regression-${sha256(canonicalJson({ config: config.name, seed, faults, checks })).slice(0, 8)}`;
}

/** Explore's checkers: `checks` if given, else the scenario's own but `goal-state`. */
export function judgedChecks(scenario: Scenario, checks?: readonly string[]): string[] {
  if (checks !== undefined && checks.length > 0) return [...checks];
  return checkersOf(scenario)
    .map((c) => c.name)
    .filter((n) => !(NOT_JUDGED_BY_DEFAULT as readonly string[]).includes(n));
}

/** fast-check takes a 32-bit seed; ours may be any safe integer. */
const fastCheckSeed = (seed: number): number => seed % 2 ** 31;

/**
 * Generates fault plans over the scenario's tools with fast-check and runs one trial per plan
 * (run seed `seed`, trial 0, the scenario named after the plan, so each plan's trial replays
 * exactly); on the first failure fast-check shrinks the plan to the smallest that still fails.
 * The same options give the same result, but for `timeLimitMs`, which may stop the search early.
 */
export async function explorePlans(options: ExploreOptions): Promise<ExploreResult> {
  const { scenario, config, seed } = options;
  const judged = judgedChecks(scenario, options.checks);
  const plans: PlanCoverage[] = [];
  let streamed: string[] = [];
  const common = (): Pick<ExploreResult, 'scenario' | 'config' | 'seed' | 'checks' | 'plans' | 'streamed'> => ({ scenario, config, seed, checks: judged, plans, streamed });
  // The generated rules come after the scenario's own (or alone, with replaceFaults).
  const offset = options.replaceFaults === true ? 0 : scenario.faults.length;
  const candidate = (plan: FaultPlan, checks: readonly string[] = judged): ScenarioOverride => ({
    name: regressionName(scenario, config, seed),
    faults: options.replaceFaults === true ? [...plan] : [...scenario.faults, ...plan],
    checks: [...checks],
  });
  const run = options.trial ?? trialsInProcess(scenario, config, seed);
  const trialOf = async (o: ScenarioOverride): Promise<TrialSummary> => {
    const trial = await run(o);
    if (trial === undefined) throw new Stopped();
    return trial;
  };

  let baseline: TrialSummary;
  try {
    // The scenario as it is (under its own name: `faultline replay` of it reproduces this trial), but for the checks judged.
    const own = { faults: candidate([]).faults!, checks: [...judged] };
    baseline = await trialOf(own);
    if (judge(baseline) === 'failed') return { ...common(), kind: 'baseline_failed', runs: 0, trial: await verdictTrial(baseline, (_plan, checks = judged) => ({ ...own, checks: [...checks] }), [], trialOf, judged) };
  } catch (error) {
    if (error instanceof Stopped) return { ...common(), kind: 'held', runs: 0, interrupted: true };
    throw error;
  }
  streamed = streamedRoutes(baseline);

  let searched = 0;
  let shrinking = 0;
  let found = false;
  let harnessError: { error: unknown } | undefined;
  let stopped = false;
  // The last plan that failed with its faults firing: at the end of shrinking, the counterexample.
  let lastFailure: { plan: FaultPlan; fired: PlanRuleFirings[] } | undefined;
  const shape = { tools: toolsToAim(scenario), anyTool: scenario.model === undefined, ...(streamed.length > 0 && { streamed }) };
  const property = fc.asyncProperty(faultPlanArbitrary(shape), async (plan) => {
    // fast-check cannot be stopped from outside: a throw ends its runs (its shrinking of the
    // throw is a few calls that throw at once, without a trial), and the result says why.
    if (options.signal?.aborted === true && !found) {
      stopped = true;
      throw new Error('stopped');
    }
    if (found) shrinking++;
    else searched++;
    options.onPlan?.(found ? 'shrinking' : 'searching', found ? shrinking : searched);
    let trial: TrialSummary;
    try {
      trial = await trialOf(candidate(plan));
    } catch (error) {
      if (error instanceof Stopped) {
        stopped = true;
        throw error;
      }
      // faultline's own crash, not the agent's (a trial turns those into verdicts): stop and report it.
      harnessError ??= { error };
      return true;
    }
    const failed = judge(trial) === 'failed';
    const fired = planFirings(plan, offset, trial);
    if (!found) plans.push({ plan: searched, rules: fired, failed });
    // A failure none of whose rules fired is not the plan's doing: no evidence, for the search or a shrink step.
    const evidence = failed && fired.some((r) => r.firings > 0);
    if (evidence) lastFailure = { plan, fired };
    found ||= evidence;
    return !evidence;
  });
  let details: Awaited<ReturnType<typeof fc.check<[FaultPlan]>>>;
  try {
    details = await fc.check(property, {
      seed: fastCheckSeed(seed),
      numRuns: options.runs,
      ...(options.timeLimitMs !== undefined && { interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false }),
      ...(options.path !== undefined && { path: options.path }),
    });
  } catch (error) {
    // A path from another seed, scenario or version of the plan space leads nowhere: the user's input, not a crash.
    if (options.path !== undefined && error instanceof Error && error.message.startsWith('Unable to replay')) {
      throw new FaultlineError(FaultlineErrorCode.Usage, `--path ${options.path}: no plan of ${scenario.name} × ${config.name} at this path with seed ${seed} (copy --seed and --path together from the regression file's header)`);
    }
    throw error;
  }
  if (harnessError) throw harnessError.error;
  if (stopped) return { ...common(), kind: 'held', runs: searched, interrupted: true };
  if (!details.failed || details.counterexample === null) return { ...common(), kind: 'held', runs: details.numRuns, interrupted: details.interrupted };

  const [shrunk] = details.counterexample;
  // fast-check hands back the last value that failed; should it be a copy, its firings are read again below.
  const firedThen = lastFailure !== undefined && canonicalJson(lastFailure.plan) === canonicalJson(shrunk) ? lastFailure.fired : undefined;
  // A rule that stayed silent in the failing trial is kept only for its draws: a regression run must not fail for its silence.
  const plan: FaultPlan = firedThen === undefined ? shrunk : shrunk.map((r, i) => (firedThen[i]!.firings > 0 || r.expect !== undefined ? r : { ...r, expect: 'may-not-fire' as const }));
  // The failing trial again under the regression's own name (and the search's seed): the trial its file reproduces.
  const final = (p: FaultPlan, checks: readonly string[] = judged): ScenarioOverride => regressionOverride(scenario, config, seed, judged, candidate(p, checks));
  let trial: FailedTrialResult;
  try {
    trial = await verdictTrial(await trialOf(final(plan)), final, plan, trialOf, judged);
  } catch (error) {
    if (error instanceof Stopped) return { ...common(), kind: 'held', runs: searched, interrupted: true };
    throw error;
  }
  // The same seed gives the same trial, so these are the search's firings (an agent on the wall clock may differ: the report says so).
  const fired = planFirings(plan, offset, trial);
  return {
    ...common(),
    kind: 'failed',
    runs: searched,
    plan,
    fired,
    regression: withOverride(scenario, final(plan, trial.checks.map((c) => c.name))),
    trial,
    shrinks: details.numShrinks,
    path: details.counterexamplePath ?? '',
  };
}

/** A shrunk plan as its regression scenario: named after its content (and the checks the search judged by), its trials seeded as the search's were. */
function regressionOverride(scenario: Scenario, config: ExecutionConfigLike, seed: number, judged: readonly string[], searched: ScenarioOverride): ScenarioOverride {
  return { ...searched, name: regressionFileName(scenario, config, seed, searched.faults ?? [], judged), seedName: searched.name ?? scenario.name };
}

/** A trial stopped from outside (a signal): the search ends where it is. */
class Stopped extends Error {}

/** A trial fails explore's judgement when a judged checker does not pass, or the agent crashed (which only `goal-state` would say). */
function judge(trial: TrialSummary): TrialSummary['status'] {
  return trial.status === 'failed' || trial.end.kind === 'crashed' ? 'failed' : 'passed';
}

/**
 * The failing trial as the regression scenario will show it: a crash is reported by
 * `goal-state`, so a crashed trial is run again with it among the checks.
 */
async function verdictTrial(
  trial: TrialSummary,
  candidate: (plan: FaultPlan, checks?: readonly string[]) => ScenarioOverride,
  plan: FaultPlan,
  trialOf: (o: ScenarioOverride) => Promise<TrialSummary>,
  judged: readonly string[],
): Promise<FailedTrialResult> {
  if (trial.status === 'failed') return trial;
  const again = await trialOf(candidate(plan, [...judged, ...NOT_JUDGED_BY_DEFAULT]));
  if (again.status !== 'failed') throw new Error(`explore: the trial of ${again.scenario} crashed once and passed once: it is not deterministic`);
  return again;
}
