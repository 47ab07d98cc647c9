import type fc from 'fast-check';
import type { FaultPlan } from '../faults/plan.js';
import type { ExecutionConfigLike } from '../runtime/executionConfig.js';
import { checkersOf, runTrial, summarise, type TrialSummary } from '../runner/trial.js';
import type { Scenario } from '../scenario/scenario.js';
import type { CellRefs } from '../stats/CellTally.js';
import { withOverride, type ScenarioOverride } from '../scenario/scenarioOverride.js';
import { MODEL_OPERATIONS } from '../model/api/modelOperations.js';
import { faultPlanArbitrary } from './faultPlanArbitrary.js';
import { crashPointArbitrary, explorePlanArbitrary, type ExplorePlan } from './crashPointArbitrary.js';
import { canCrashAgent } from '../scenario/agentCrash.js';
import { failureClasses, isIgnored, type FailureClass, type IgnoreEntry } from './failureClass.js';
import type { ExploreCommon, ExploreFinding, ExploreResult, FailedTrialResult, PlanCoverage } from './exploreResult.js';
import type { ExploreOptions, ExploreTrial } from './exploreOptions.js';
import { planFirings, streamedRoutes, toolsToAim, writeToolsToAim } from './planTargets.js';
import { Stopped, type Found, type PlanSpace } from './planSearch.js';
import { regressionOverride, regressionName } from './regressionName.js';
import { searchClasses } from './searchClasses.js';
import { shrinkClass } from './shrinkClass.js';

/**
 * Under a generated plan the goal may simply be out of reach (a permanent 403 on the only
 * write): explore asks whether the agent stayed safe and honest, not whether it finished.
 * A crash is judged apart (see `judge`).
 */
export const NOT_JUDGED_BY_DEFAULT = ['goal-state'] as const;

/** Explore's trials in this process, one after another. */
export const trialsInProcess =
  (scenario: Scenario, config: ExecutionConfigLike, seed: number, refs?: CellRefs): ExploreTrial =>
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

/** Explore's checkers: `checks` if given, else the scenario's own but `goal-state`; less the checkers `ignore` names. */
export function judgedChecks(
  scenario: Scenario,
  checks?: readonly string[],
  ignore: readonly IgnoreEntry[] = [],
): string[] {
  const ignored = (n: string): boolean => ignore.some((e) => e.kind === 'checker' && e.name === n);
  if (checks !== undefined && checks.length > 0) return checks.filter((n) => !ignored(n));
  const names = checkersOf(scenario).map((c) => c.name);
  // Where there is a model, the plans make its own mistakes too: judge them.
  if (scenario.model !== undefined && !names.includes('model-mistakes')) names.push('model-mistakes');
  return names.filter((n) => !(NOT_JUDGED_BY_DEFAULT as readonly string[]).includes(n) && !ignored(n));
}

/** What every step of one search shares: its options, its plans, how a candidate is built, run and judged. */
interface Search {
  readonly options: ExploreOptions;
  readonly judged: readonly string[];
  /** Whether plans carry crash points (the drawn one, or none, in place of the scenario's own `crash`). */
  readonly drawsCrash: boolean;
  readonly candidate: (plan: ExplorePlan, checks?: readonly string[]) => ScenarioOverride;
  readonly trialOf: (o: ScenarioOverride) => Promise<TrialSummary>;
  readonly reported: (trial: TrialSummary) => FailureClass[];
}

/** The scenario's own trial, and the failure classes it shows without a plan. */
type Baseline = { readonly trial: FailedTrialResult; readonly classes: readonly FailureClass[] };

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
  const search = searchOf(options);
  const { scenario, config, seed } = options;
  const plans: PlanCoverage[] = [];
  const common = (runs: number, interrupted: boolean, streamed: string[]): ExploreCommon => ({
    scenario,
    config,
    seed,
    checks: search.judged,
    runs,
    interrupted,
    plans,
    streamed,
  });
  const own = await ownTrial(search);
  const { streamed } = own;
  if (own.kind === 'stopped') return { ...common(0, true, streamed), kind: 'held' };
  const { baseline } = own;
  // The generated rules come after the scenario's own (or alone, with replaceFaults).
  const space: PlanSpace = {
    arbitrary: arbitraryFor(scenario, streamed, options, search.drawsCrash),
    offset: options.replaceFaults === true ? 0 : scenario.faults.length,
  };
  const tryPlan = (plan: ExplorePlan): Promise<TrialSummary> => search.trialOf(search.candidate(plan));
  const found = await searchClasses(options, space, new Set(baseline?.classes), tryPlan, search.reported, plans);
  const shrunk = await shrinkAll(search, space, found.found, found.stopped);
  const done = common(found.runs, found.interrupted || shrunk.stopped, streamed);
  const { findings, unshrunk } = shrunk;
  if (baseline === undefined && findings.length === 0 && unshrunk.length === 0) return { ...done, kind: 'held' };
  return { ...done, kind: 'failed', ...(baseline && { baseline }), findings, unshrunk };
}

/** The checks judged, and how a plan becomes a candidate scenario, its trial and its failure classes. */
function searchOf(options: ExploreOptions): Search {
  const { scenario, config, seed } = options;
  const ignore = options.ignore ?? [];
  const drawsCrash = drawsCrashPoints(options);
  const judged = judgedChecks(scenario, options.checks, ignore);
  // A drawn crash's restart that never finishes fails `recovery`, as the scenario's own crash's would.
  if (drawsCrash && options.checks === undefined && !judged.includes('recovery') && !isIgnored('recovery', ignore))
    judged.push('recovery');
  // ...which judges a crash or a recovery expectation: a plan with neither is not judged by it (nor refused at load).
  const checksOf = (plan: ExplorePlan, checks: readonly string[]): string[] =>
    scenario.recovery !== undefined || (drawsCrash ? plan.crash !== undefined : scenario.crash !== undefined)
      ? [...checks]
      : checks.filter((c) => c !== 'recovery');
  const run = options.trial ?? trialsInProcess(scenario, config, seed);
  return {
    options,
    judged,
    drawsCrash,
    candidate: (plan, checks = judged) => ({
      name: regressionName(scenario, config, seed),
      faults: options.replaceFaults === true ? [...plan.faults] : [...scenario.faults, ...plan.faults],
      checks: checksOf(plan, checks),
      ...(drawsCrash && { crash: plan.crash === undefined ? null : { agent: plan.crash } }),
    }),
    trialOf: async (o) => {
      const trial = await run(o);
      if (trial === undefined) throw new Stopped();
      return trial;
    },
    reported: (trial) => failureClasses(trial).filter((c) => !isIgnored(c, ignore)),
  };
}

/**
 * Whether a search draws crash points: where the agent can be crashed (`canCrashAgent`), and the
 * scenario has no crash of its own or the search replaces it (`--replace-faults`, `--crash-only`).
 * Beside other faults, only for a command agent: a function or http agent's restart imports its
 * module afresh in every crashed trial, and a search over it keeps the plans it drew before crash
 * points existed unless `--crash-only` asks for them.
 */
export const drawsCrashPoints = (options: Pick<ExploreOptions, 'scenario' | 'replaceFaults' | 'crashOnly'>): boolean =>
  canCrashAgent(options.scenario.agent.kind, options.scenario.agents) &&
  (options.scenario.agent.kind === 'command' || options.crashOnly === true) &&
  (options.scenario.crash === undefined || options.replaceFaults === true || options.crashOnly === true);

/**
 * The scenario as it is (under its own name: `faultline replay` of it reproduces this trial), but for the checks
 * judged: the routes it streamed, and the classes it fails with on its own (or `stopped`, by a signal).
 */
async function ownTrial(
  search: Search,
): Promise<
  | { readonly kind: 'ran'; readonly streamed: string[]; readonly baseline: Baseline | undefined }
  | { readonly kind: 'stopped'; readonly streamed: string[] }
> {
  const { candidate, trialOf, judged } = search;
  let streamed: string[] = [];
  try {
    const { name: _name, ...own } = candidate({ faults: [] });
    const trial = await trialOf(own);
    // Stream faults strike only streamed answers: the plans aim them at the routes this trial streamed.
    streamed = streamedRoutes(trial);
    const classes = search.reported(trial);
    if (classes.length === 0) return { kind: 'ran', streamed, baseline: undefined };
    const again = (_plan: ExplorePlan, checks: readonly string[] = judged): ScenarioOverride => ({
      ...own,
      checks: [...checks],
    });
    return {
      kind: 'ran',
      streamed,
      baseline: { trial: await verdictTrial(trial, again, { faults: [] }, trialOf, judged), classes },
    };
  } catch (error) {
    if (error instanceof Stopped) return { kind: 'stopped', streamed };
    throw error;
  }
}

/** Each class found, shrunk and run again as its regression; those a signal stopped first are left unshrunk. */
async function shrinkAll(
  search: Search,
  space: PlanSpace,
  found: readonly Found[],
  stoppedBefore: boolean,
): Promise<{ readonly findings: ExploreFinding[]; readonly unshrunk: FailureClass[]; readonly stopped: boolean }> {
  const findings: ExploreFinding[] = [];
  const unshrunk: FailureClass[] = [];
  let stopped = stoppedBefore;
  for (const one of found) {
    if (stopped) {
      unshrunk.push(one.failure);
      continue;
    }
    try {
      const finding = await shrinkOne(search, space, one);
      if (finding === undefined) {
        stopped = true;
        unshrunk.push(one.failure);
      } else findings.push(finding);
    } catch (error) {
      if (!(error instanceof Stopped)) throw error;
      stopped = true;
      unshrunk.push(one.failure);
    }
  }
  return { findings, unshrunk, stopped };
}

/** One class's plan shrunk, and its failing trial again under the regression's own name; undefined when stopped. */
async function shrinkOne(search: Search, space: PlanSpace, found: Found): Promise<ExploreFinding | undefined> {
  const { options, candidate, trialOf, judged } = search;
  const { scenario, config, seed } = options;
  const tryPlan = (plan: ExplorePlan): Promise<TrialSummary> => trialOf(candidate(plan));
  const shrunk = await shrinkClass(options, space, found, tryPlan, search.reported);
  if (shrunk === undefined) return undefined;
  const final = (p: ExplorePlan, checks: readonly string[] = judged): ScenarioOverride =>
    regressionOverride(scenario, config, seed, judged, candidate(p, checks));
  // The failing trial again under the regression's own name (and the search's seed): the trial its file reproduces.
  const trial = await verdictTrial(await trialOf(final(shrunk.plan)), final, shrunk.plan, trialOf, judged);
  return {
    failure: found.failure,
    plan: shrunk.plan.faults,
    ...(shrunk.plan.crash !== undefined && { crash: shrunk.plan.crash }),
    // The same seed gives the same trial, so these are the shrink's firings (an agent on the wall clock may differ: the report says so).
    fired: planFirings(shrunk.plan, space.offset, trial),
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
  };
}

/**
 * The plans of a scenario: over its tools and model routes, with stream faults on the routes its own trial `streamed`,
 * and crash points where it `drawsCrash` (only those with `crashOnly`).
 */
function arbitraryFor(
  scenario: Scenario,
  streamed: readonly string[],
  options: Pick<ExploreOptions, 'lies' | 'crashOnly'>,
  drawsCrash: boolean,
): fc.Arbitrary<ExplorePlan> {
  const faults = (minRules: number): fc.Arbitrary<FaultPlan> =>
    faultPlanArbitrary({
      tools: toolsToAim(scenario),
      anyTool: scenario.model === undefined,
      ...(streamed.length > 0 && { streamed }),
      ...(options.lies === true && { lies: true }),
      ...(scenario.model && { modelRoutes: MODEL_OPERATIONS[scenario.model.api] }),
      ...(minRules !== 1 && { minRules }),
    });
  if (!drawsCrash) return explorePlanArbitrary(faults);
  const points = crashPointArbitrary({ writeTools: writeToolsToAim(scenario) });
  return explorePlanArbitrary(faults, { points, only: options.crashOnly === true });
}

/**
 * The failing trial as the regression scenario will show it: a crash is reported by
 * `goal-state`, so a crashed trial is run again with it among the checks.
 */
async function verdictTrial(
  trial: TrialSummary,
  candidate: (plan: ExplorePlan, checks?: readonly string[]) => ScenarioOverride,
  plan: ExplorePlan,
  trialOf: (o: ScenarioOverride) => Promise<TrialSummary>,
  judged: readonly string[],
): Promise<FailedTrialResult> {
  if (trial.status === 'failed') return trial;
  const again = await trialOf(candidate(plan, [...judged, ...NOT_JUDGED_BY_DEFAULT]));
  if (again.status !== 'failed')
    throw new Error(`explore: the trial of ${again.scenario} crashed once and passed once: it is not deterministic`);
  return again;
}
