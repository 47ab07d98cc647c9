import type { PlanCoverage } from '../explore/explorePlans.js';
import { planExercise, type ExploreResult } from '../explore/explorePlans.js';
import { failedTrialLines } from '../report/failures.js';
import { mark, type painter } from '../report/paint.js';
import { shellQuote } from '../runner/replay.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import { matrixAgentOf, refOf } from '../scenario/library.js';
import type { Scenario } from '../scenario/scenario.js';
import { overrideOf } from '../scenario/scenarioOverride.js';
import { describeBehaviour } from '../model/behaviours.js';
import type { ExploreRequest } from './commands/exploreFlags.js';
import { writeRegressions } from './exploreRegressions.js';
import type { Io } from './io.js';

/** One scenario × configuration pair of a search, as its lines and its regression files name it. */
export interface PairTarget {
  readonly scenario: Scenario;
  readonly config: ExecutionConfig;
  readonly agent: ReturnType<typeof matrixAgentOf>;
  readonly label: string;
}

/** What the pairs searched so far add up to, for the closing line and the exit code. */
export interface ExploreTally {
  /** Each regression file written, and the class it was written for. */
  readonly written: Map<string, string>;
  readonly searched: PlanCoverage[];
  failed: number;
  unexercised: number;
}

/** Prints one pair's search (held, or what failed and its regressions, written) and counts it in `tally`. */
export async function reportPair(
  request: ExploreRequest,
  result: ExploreResult,
  target: PairTarget,
  context: { readonly seed: number; readonly signal: AbortSignal; readonly p: ReturnType<typeof painter> },
  tally: ExploreTally,
  io: Io,
): Promise<void> {
  const { signal, p } = context;
  tally.searched.push(...result.plans);
  const streams = result.streamed.length > 0 ? `; stream faults on ${result.streamed.join(', ')}` : '';
  // Plans none of whose rules fired tested nothing: a search in which none fired held vacuously.
  const silent = result.plans.length > 0 && result.plans.every((c) => planExercise(c) === 'none');
  if (silent) tally.unexercised++;
  if (result.kind === 'held') {
    const cut = result.interrupted
      ? ` (stopped by ${signal.aborted ? 'a signal' : '--time'} after ${result.runs})`
      : '';
    const coverage = silent
      ? `, but none exercised its faults: not one generated rule fired, so the search tested nothing ` +
        `(do the plans aim at calls the agent makes?)`
      : result.plans.length > 0
        ? `; ${exercisedText(result.plans)}`
        : '';
    io.stdout.write(
      `${mark(p, !silent)} ${target.label}: ${result.runs} plans, none failed${cut}${coverage}${streams}\n`,
    );
    return;
  }
  tally.failed++;
  if (result.baseline !== undefined) printBaseline(result.baseline, target, context, io);
  const cut = result.interrupted ? `, stopped by ${signal.aborted ? 'a signal' : '--time'}` : '';
  const found = result.findings.length + result.unshrunk.length;
  const head = `${mark(p, found === 0 && !silent)} ${target.label}: ${result.runs} plan${result.runs === 1 ? '' : 's'}${cut}`;
  const other = result.baseline ? 'other ' : '';
  const failures = [...result.findings.map((f) => f.failure), ...result.unshrunk].join(', ');
  const classes =
    found === 0 ? `no ${other}failure class` : `${found} ${other}failure class${found === 1 ? '' : 'es'}: ${failures}`;
  io.stdout.write(`${head}, ${classes}${streams}\n`);
  if (result.plans.length > 0)
    io.stdout.write(
      `    plans tried: ${exercisedText(result.plans)}${silent ? ': not one generated rule fired, so the search tested nothing' : ''}\n`,
    );
  await writeRegressions(request, result, target, tally.written, p, io);
  if (result.unshrunk.length > 0)
    io.stdout.write(`    not shrunk, the search was stopped first: ${result.unshrunk.join(', ')}\n`);
}

/** A pair that fails with no added fault: the command that shows it, its trial, and how the plans are judged then. */
function printBaseline(
  { classes, trial }: NonNullable<Extract<ExploreResult, { kind: 'failed' }>['baseline']>,
  { scenario, config, agent, label }: PairTarget,
  { seed, p }: { readonly seed: number; readonly p: ReturnType<typeof painter> },
  io: Io,
): void {
  io.stdout.write(
    `${mark(p, false)} ${label}: fails with no added fault (${classes.join(', ')}): faultline run ` +
      `${shellQuote(refOf(scenario))} --config ${shellQuote(refOf(config))} --seed ` +
      `${seed}${agent === undefined ? '' : ` --agent ${shellQuote(agent.name)}`}${behaviourFlag(scenario)}\n`,
  );
  io.stdout.write(
    `${failedTrialLines(trial)
      .map((l) => `    ${l}`)
      .join('\n')}\n`,
  );
  io.stdout.write(
    `    the plans are judged by the other failure classes (--ignore ${classes.join(',')} to say so on the command line)\n`,
  );
}

/** ` --behaviour …` when the run gave the scenario one (`--behaviour`), so the command reproduces it. */
const behaviourFlag = (scenario: Scenario): string => {
  const behaviour = overrideOf(scenario)?.behaviour;
  return behaviour === undefined ? '' : ` --behaviour ${shellQuote(describeBehaviour(behaviour))}`;
};

/** The closing line: how many pairs failed or exercised nothing, what the plans covered, the regressions written. */
export function summaryLine(pairCount: number, tally: ExploreTally): string {
  const silent =
    tally.unexercised > 0 ? `; ${tally.unexercised} not exercised (no generated rule fired in any plan)` : '';
  const coverage = tally.searched.length > 0 ? `; ${exercisedText(tally.searched)}` : '';
  const pairsText = `${pairCount} scenario × configuration pair${pairCount === 1 ? '' : 's'}`;
  const regressions = tally.written.size > 0 ? `; regressions: ${[...tally.written.keys()].join(', ')}` : '';
  return tally.failed === 0
    ? `\nexplore: no failing plan in ${pairsText}${silent}${coverage}\n`
    : `\nexplore: ${tally.failed} of ${pairsText} failed${silent}${coverage}${regressions}\n`;
}

/** What a search covers: its scenarios, the matrix agents among them, its configurations. */
export function matrixText(scenarios: readonly Scenario[], configs: readonly ExecutionConfig[]): string {
  const scenarioCount = new Set(scenarios.map((s) => s.name)).size;
  const agents = new Set(scenarios.flatMap((s) => matrixAgentOf(s)?.name ?? [])).size;
  return (
    `${scenarioCount} scenario${scenarioCount === 1 ? '' : 's'}${agents > 0 ? ` × ${agents} agent${agents === 1 ? '' : 's'}` : ''} × ` +
    `${configs.length} configuration${configs.length === 1 ? '' : 's'}`
  );
}

/** `87 of 100 plans exercised their faults (62 fired every rule; 13 fired none: no evidence)`. */
export function exercisedText(plans: readonly PlanCoverage[]): string {
  const by = { every: 0, some: 0, none: 0 };
  for (const c of plans) by[planExercise(c)]++;
  const n = plans.length;
  return (
    `${by.every + by.some} of ${n} plan${n === 1 ? '' : 's'} exercised their faults (${by.every} fired ` +
    `every rule${by.none > 0 ? `; ${by.none} fired none: no evidence` : ''})`
  );
}
