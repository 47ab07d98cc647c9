import fc from 'fast-check';
import { canonicalJson, FaultlineError, FaultlineErrorCode, sha256, VirtualClock } from '../core/index.js';
import type { FaultPlan } from '../faults/plan.js';
import { ruleLabel } from '../faults/ruleLabel.js';
import type { ExecutionConfigLike } from '../runtime/executionConfig.js';
import { checkersOf, runTrial, summarise, type TrialSummary } from '../runner/trial.js';
import type { Scenario } from '../scenario/scenario.js';
import { matrixAgentOf } from '../scenario/library.js';
import { MODEL_OPERATIONS } from '../model/api/modelOperations.js';
import { withOverride, type ScenarioOverride } from '../scenario/scenarioOverride.js';
import { BUILTIN_SERVICES, createWorld } from '../world/createWorld.js';
import { faultPlanArbitrary } from './faultPlanArbitrary.js';
import { failureClasses, isIgnored, type FailureClass, type IgnoreEntry } from './failureClass.js';
import type {
  ExploreCommon,
  ExploreFinding,
  ExploreResult,
  FailedTrialResult,
  PlanCoverage,
  PlanRuleFirings,
} from './exploreResult.js';

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
  /** Draw faults that look like success too (`--lies`). */
  readonly lies?: boolean;
  /** The checkers that decide (default: the scenario's, but `goal-state`). */
  readonly checks?: readonly string[];
  /** Checkers, rules and classes the search does not report (`--ignore`): an ignored checker is not judged at all. */
  readonly ignore?: readonly IgnoreEntry[];
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
  (
    scenario: Scenario,
    config: ExecutionConfigLike,
    seed: number,
    refs?: { readonly scenario: string; readonly config: string },
  ): ExploreTrial =>
  async (override) =>
    summarise(
      await runTrial({
        scenario: withOverride(scenario, override),
        config,
        runSeed: seed,
        trialIndex: 0,
        ...(refs && { refs }),
      }),
      true,
    );

export {
  planExercise,
  type ExploreFinding,
  type ExploreResult,
  type ExploreResultKind,
  type FailedTrialResult,
  type PlanCoverage,
  type PlanExercise,
  type PlanRuleFirings,
} from './exploreResult.js';

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
  const steps = [
    ...(scenario.agent.kind === 'scripted' ? scenario.agent.plan.steps : []),
    ...(scenario.model?.plan?.steps ?? []),
  ];
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
  for (const e of trial.history)
    if (e.type === 'response' && e.stream !== undefined && e.tool.startsWith('model:')) routes.add(e.tool);
  return [...routes].sort();
}

/** How often each rule of `plan` fired in a trial whose plan puts it after `offset` rules. */
export function planFirings(plan: FaultPlan, offset: number, trial: Pick<TrialSummary, 'stats'>): PlanRuleFirings[] {
  const byRule = new Map(trial.stats.firings);
  return plan.map((r, rule) => ({ rule, label: ruleLabel(r), firings: byRule.get(offset + rule) ?? 0 }));
}

/**
 * A failure counts for the search and each shrink step only if at least one of the plan's own rules fired: else it is
 * not the plan's doing.
 */
const exercised = (fired: readonly PlanRuleFirings[]): boolean => fired.some((r) => r.firings > 0);

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
export function regressionFileName(
  scenario: Scenario,
  config: ExecutionConfigLike,
  seed: number,
  faults: FaultPlan,
  checks: readonly string[],
): string {
  // One scenario file runs under each agent of a matrix: two agents' plans never share a file.
  const agent = matrixAgentOf(scenario)?.name;
  const key = canonicalJson({ config: config.name, seed, faults, checks, ...(agent !== undefined && { agent }) });
  return `${scenario.name}-regression-${sha256(key).slice(0, 8)}`;
}

/** Explore's checkers: `checks` if given, else the scenario's own but `goal-state`; less the checkers `ignore` names. */
export function judgedChecks(
  scenario: Scenario,
  checks?: readonly string[],
  ignore: readonly IgnoreEntry[] = [],
): string[] {
  const ignored = (n: string): boolean => ignore.some((e) => e.kind === 'checker' && e.name === n);
  if (checks !== undefined && checks.length > 0) return checks.filter((n) => !ignored(n));
  return checkersOf(scenario)
    .map((c) => c.name)
    .filter((n) => !(NOT_JUDGED_BY_DEFAULT as readonly string[]).includes(n) && !ignored(n));
}

/** fast-check takes a 32-bit seed; ours may be any safe integer. */
const fastCheckSeed = (seed: number): number => seed % 2 ** 31;

/**
 * Generates fault plans over the scenario's tools with fast-check and runs one trial per plan
 * (run seed `seed`, trial 0, the scenario named after the search, so each plan's trial replays
 * exactly). The search spends the whole budget and keeps the first plan of each failure class
 * (checker and rule) that neither the scenario on its own shows nor `ignore` names, in a trial
 * where at least one of the plan's rules fired; then fast-check replays each such plan and
 * shrinks it to the smallest that still shows its class with a rule of its own firing.
 * The same options give the same result, but for `timeLimitMs`, which may stop the search early.
 */
export async function explorePlans(options: ExploreOptions): Promise<ExploreResult> {
  const { scenario, config, seed } = options;
  const ignore = options.ignore ?? [];
  const judged = judgedChecks(scenario, options.checks, ignore);
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
  const reported = (trial: TrialSummary): FailureClass[] => failureClasses(trial).filter((c) => !isIgnored(c, ignore));
  const plans: PlanCoverage[] = [];
  let streamed: string[] = [];
  const common = (runs: number, interrupted: boolean): ExploreCommon => ({
    scenario,
    config,
    seed,
    checks: judged,
    runs,
    interrupted,
    plans,
    streamed,
  });

  // The scenario as it is (under its own name: `faultline replay` of it reproduces this trial), but for the checks judged.
  let baseline: { readonly trial: FailedTrialResult; readonly classes: readonly FailureClass[] } | undefined;
  try {
    const own = { faults: candidate([]).faults!, checks: [...judged] };
    const trial = await trialOf(own);
    // Stream faults strike only streamed answers: the plans aim them at the routes this trial streamed.
    streamed = streamedRoutes(trial);
    const classes = reported(trial);
    if (classes.length > 0)
      baseline = {
        trial: await verdictTrial(
          trial,
          (_plan, checks = judged) => ({ ...own, checks: [...checks] }),
          [],
          trialOf,
          judged,
        ),
        classes,
      };
  } catch (error) {
    if (error instanceof Stopped) return { ...common(0, true), kind: 'held' };
    throw error;
  }

  // The generated rules come after the scenario's own (or alone, with replaceFaults).
  const space: PlanSpace = {
    arbitrary: arbitraryFor(scenario, streamed, options.lies === true),
    offset: options.replaceFaults === true ? 0 : scenario.faults.length,
  };
  const search = await searchClasses(
    options,
    space,
    new Set(baseline?.classes),
    (plan) => trialOf(candidate(plan)),
    reported,
    plans,
  );
  const findings: ExploreFinding[] = [];
  const unshrunk: FailureClass[] = [];
  let stopped = search.stopped;
  const final = (p: FaultPlan, checks: readonly string[] = judged): ScenarioOverride =>
    regressionOverride(scenario, config, seed, judged, candidate(p, checks));
  for (const found of search.found) {
    if (stopped) {
      unshrunk.push(found.failure);
      continue;
    }
    try {
      const shrunk = await shrinkClass(options, space, found, (plan) => trialOf(candidate(plan)), reported);
      if (shrunk === undefined) {
        stopped = true;
        unshrunk.push(found.failure);
        continue;
      }
      // The failing trial again under the regression's own name (and the search's seed): the trial its file reproduces.
      const trial = await verdictTrial(await trialOf(final(shrunk.plan)), final, shrunk.plan, trialOf, judged);
      // The same seed gives the same trial, so these are the shrink's firings (an agent on the wall clock may differ: the report says so).
      const fired = planFirings(shrunk.plan, space.offset, trial);
      findings.push({
        failure: found.failure,
        plan: shrunk.plan,
        fired,
        regression: withOverride(
          scenario,
          final(
            shrunk.plan,
            trial.checks.map((c) => c.name),
          ),
        ),
        trial,
        shrinks: shrunk.shrinks,
        path: shrunk.path,
        foundAt: found.index + 1,
      });
    } catch (error) {
      if (!(error instanceof Stopped)) throw error;
      stopped = true;
      unshrunk.push(found.failure);
    }
  }
  const done = common(search.runs, search.interrupted || stopped);
  if (baseline === undefined && findings.length === 0 && unshrunk.length === 0) return { ...done, kind: 'held' };
  return { ...done, kind: 'failed', ...(baseline && { baseline }), findings, unshrunk };
}

/** The plans one search draws from (the search and every shrink of it draw the same), and where their rules sit in a trial's faults. */
interface PlanSpace {
  readonly arbitrary: fc.Arbitrary<FaultPlan>;
  readonly offset: number;
}

/** A class's first plan: where in fast-check's stream it was (`path`), and the plan's index in the search. */
interface Found {
  readonly failure: FailureClass;
  readonly path: string;
  readonly index: number;
}

/** Why fast-check's run was ended from inside the property: it cannot be stopped from outside. */
class Halt extends Error {}

/**
 * The plan's trial. A throw is a signal, or faultline's own crash, not the agent's (a trial turns
 * those into verdicts): `halt` is told which, and fast-check's run ends.
 */
async function trialOrHalt(
  trialOf: (plan: FaultPlan) => Promise<TrialSummary>,
  plan: FaultPlan,
  halt: (why: 'stopped' | { readonly error: unknown }) => void,
): Promise<TrialSummary> {
  try {
    return await trialOf(plan);
  } catch (error) {
    halt(error instanceof Stopped ? 'stopped' : { error });
    throw new Halt();
  }
}

/**
 * The search: every plan of the budget (or of `--time`), keeping the first plan of each class
 * not in `known` whose trial fired at least one of the plan's rules; each plan's coverage goes to
 * `plans`. A path with a shrink step (`4:0:1`) names one plan: the search tries only it.
 */
async function searchClasses(
  options: ExploreOptions,
  space: PlanSpace,
  known: Set<FailureClass>,
  trialOf: (plan: FaultPlan) => Promise<TrialSummary>,
  reported: (trial: TrialSummary) => FailureClass[],
  plans: PlanCoverage[],
): Promise<{
  readonly found: readonly Found[];
  readonly runs: number;
  readonly interrupted: boolean;
  readonly stopped: boolean;
}> {
  const start = options.path === undefined ? 0 : Number(options.path.split(':')[0]);
  const onePlan = options.path?.includes(':') === true;
  const found: Found[] = [];
  let searched = 0;
  let halted: 'stopped' | 'replayed' | { readonly error: unknown } | undefined;
  const property = fc.asyncProperty(space.arbitrary, async (plan) => {
    // A throw ends fast-check's runs; its shrinking of the throw is a few calls that throw at once, without a trial.
    if (halted !== undefined) throw new Halt();
    if (options.signal?.aborted === true) {
      halted = 'stopped';
      throw new Halt();
    }
    const index = searched++;
    options.onPlan?.('searching', searched);
    const trial = await trialOrHalt(trialOf, plan, (why) => (halted = why));
    const failures = reported(trial);
    const fired = planFirings(plan, space.offset, trial);
    plans.push({ plan: index + 1, rules: fired, failed: failures.length > 0 });
    // A failure none of whose rules fired is not the plan's doing: no evidence of any class.
    if (exercised(fired)) {
      for (const failure of failures) {
        if (known.has(failure)) continue;
        known.add(failure);
        found.push({ failure, index, path: onePlan ? options.path! : String(start + index) });
      }
    }
    if (onePlan) {
      halted = 'replayed';
      throw new Halt();
    }
    return true;
  });
  const details = await checkAt(options, property, {
    numRuns: options.runs,
    ...(options.timeLimitMs !== undefined && {
      interruptAfterTimeLimit: options.timeLimitMs,
      markInterruptAsFailure: false,
    }),
    ...(options.path !== undefined && { path: options.path }),
  });
  if (typeof halted === 'object') throw halted.error;
  return {
    found,
    runs: searched,
    interrupted: halted === 'stopped' || details.interrupted,
    stopped: halted === 'stopped',
  };
}

/**
 * fast-check replays a class's first plan and shrinks it to the smallest plan that still shows
 * that class with at least one of its rules firing (a smaller plan that fails for another reason
 * is no reproduction); a rule of it that stayed silent is marked `expect: may-not-fire`.
 * Undefined when a signal stopped it.
 */
async function shrinkClass(
  options: ExploreOptions,
  space: PlanSpace,
  found: Found,
  trialOf: (plan: FaultPlan) => Promise<TrialSummary>,
  reported: (trial: TrialSummary) => FailureClass[],
): Promise<{ readonly plan: FaultPlan; readonly shrinks: number; readonly path: string } | undefined> {
  let steps = 0;
  let halted: 'stopped' | { readonly error: unknown } | undefined;
  // The last plan that showed the class with its faults firing: at the end of shrinking, the counterexample.
  let lastFailure: { readonly plan: FaultPlan; readonly fired: readonly PlanRuleFirings[] } | undefined;
  const property = fc.asyncProperty(space.arbitrary, async (plan) => {
    if (halted !== undefined) throw new Halt();
    if (options.signal?.aborted === true) {
      halted = 'stopped';
      throw new Halt();
    }
    if (steps > 0) options.onPlan?.('shrinking', steps);
    steps++;
    const trial = await trialOrHalt(trialOf, plan, (why) => (halted = why));
    const fired = planFirings(plan, space.offset, trial);
    const evidence = exercised(fired) && reported(trial).includes(found.failure);
    if (evidence) lastFailure = { plan, fired };
    return !evidence;
  });
  const details = await checkAt(options, property, { numRuns: 1, path: found.path });
  if (typeof halted === 'object') throw halted.error;
  if (halted === 'stopped') return undefined;
  if (!details.failed || details.counterexample === null)
    throw new Error(
      `explore: the plan of ${options.scenario.name} at path ${found.path} showed ${found.failure} once ` +
        `and not again: its trial is not deterministic`,
    );
  const [shrunk] = details.counterexample;
  // fast-check hands back the last value that failed; should it be a copy, its firings are read again by the caller.
  const firedThen =
    lastFailure !== undefined && canonicalJson(lastFailure.plan) === canonicalJson(shrunk)
      ? lastFailure.fired
      : undefined;
  // A rule that stayed silent in the failing trial is kept only for its draws: a regression run must not fail for its silence.
  const plan: FaultPlan =
    firedThen === undefined
      ? shrunk
      : shrunk.map((r, i) =>
          firedThen[i]!.firings > 0 || r.expect !== undefined ? r : { ...r, expect: 'may-not-fire' as const },
        );
  return { plan, shrinks: details.numShrinks, path: details.counterexamplePath ?? found.path };
}

/** The plans of a scenario: over its tools and model routes, with stream faults on the routes its own trial `streamed`. */
const arbitraryFor = (scenario: Scenario, streamed: readonly string[], lies: boolean): fc.Arbitrary<FaultPlan> =>
  faultPlanArbitrary({
    tools: toolsToAim(scenario),
    anyTool: scenario.model === undefined,
    ...(streamed.length > 0 && { streamed }),
    ...(lies && { lies }),
  });

/** `fc.check` under the explore seed; a `--path` that leads nowhere is the user's input, not a crash. */
async function checkAt(
  options: ExploreOptions,
  property: fc.IAsyncProperty<[FaultPlan]>,
  parameters: fc.Parameters<[FaultPlan]>,
): Promise<fc.RunDetails<[FaultPlan]>> {
  try {
    return await fc.check(property, { ...parameters, seed: fastCheckSeed(options.seed) });
  } catch (error) {
    // A path from another seed, scenario or version of the plan space leads nowhere.
    if (options.path !== undefined && error instanceof Error && error.message.startsWith('Unable to replay')) {
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        `--path ${options.path}: no plan of ${options.scenario.name} × ${options.config.name} at this ` +
          `path with seed ${options.seed} (copy --seed and --path together from the regression file's header)`,
      );
    }
    throw error;
  }
}

/**
 * A shrunk plan as its regression scenario: named after its content (and the checks the search judged by), its trials
 * seeded as the search's were.
 */
function regressionOverride(
  scenario: Scenario,
  config: ExecutionConfigLike,
  seed: number,
  judged: readonly string[],
  searched: ScenarioOverride,
): ScenarioOverride {
  return {
    ...searched,
    name: regressionFileName(scenario, config, seed, searched.faults ?? [], judged),
    seedName: searched.name ?? scenario.name,
  };
}

/** A trial stopped from outside (a signal): the search ends where it is. */
class Stopped extends Error {}

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
  if (again.status !== 'failed')
    throw new Error(`explore: the trial of ${again.scenario} crashed once and passed once: it is not deterministic`);
  return again;
}
