import { randomInt } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { BUILTIN_CHECKERS } from '../checks/index.js';
import { explorePlans, trialsInProcess, type ExploreResult } from '../explore/explorePlans.js';
import { parseIgnore, type IgnoreEntry } from '../explore/failureClass.js';
import { colorEnabled } from '../report/console.js';
import { painter } from '../report/paint.js';
import { loadConfigs, matrixAgentOf, refOf, sourceFileOf } from '../scenario/library.js';
import { CRASHABLE_TEXT, canCrashAgent, whyNotCrashable } from '../scenario/agentCrash.js';
import { cellRuns } from '../runner/cellLabel.js';
import { checkConfigFlag } from '../runner/notApplicable.js';
import { flagNames, type ExploreRequest } from './commands/exploreFlags.js';
import { ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import { loadAll } from './loadAll.js';
import { isolationOf } from './commands/isolationFlags.js';
import { IsolatedTrials } from '../runner/pool/IsolatedTrials.js';
import type { Scenario } from '../scenario/scenario.js';
import { runsUserCode } from '../agent/kinds/runsUserCode.js';
import { assertPeersInstalled } from '../agent/kinds/optionalPeers.js';
import { prepareModelSource } from '../scenario/modelSource.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import { matrixText, reportPair, summaryLine, type ExploreTally, type PairTarget } from './explorePairReport.js';
import { progressLine } from './progressLine.js';
import { loadFlaggedScenarios } from './loadFlaggedScenarios.js';
import { describeBehaviour } from '../model/behaviours.js';
import { overrideOf } from '../scenario/scenarioOverride.js';

// Seeds shown in a command line should be short enough to retype.
const RANDOM_SEED_MAX = 2 ** 31 - 1;

const usage = (message: string): FaultlineError => new FaultlineError(FaultlineErrorCode.Usage, message);

/**
 * Refusals that need no trial: unknown checkers, rules or classes, a checker both kept and
 * ignored, a `--path` for more than one search, an `--out` that is a file. The `--ignore` entries.
 */
async function refuseBadFlags(request: ExploreRequest, pairs: number): Promise<IgnoreEntry[]> {
  const known = BUILTIN_CHECKERS.map((c) => c.name);
  const checks = flagNames(request.check);
  const unknown = checks.filter((c) => !known.includes(c));
  if (unknown.length > 0)
    throw usage(`--check: unknown checker ${unknown.map((c) => `"${c}"`).join(', ')} (one of: ${known.join(', ')})`);
  const ignore = parseIgnore(request.ignore ?? []);
  if ('error' in ignore) throw usage(ignore.error);
  const both = ignore.entries.flatMap((e) => (e.kind === 'checker' && checks.includes(e.name) ? [e.name] : []));
  if (both.length > 0)
    throw usage(`--ignore ${both.join(',')}: the same checker is named by --check; keep it or ignore it, not both`);
  if (request.path !== undefined && pairs !== 1)
    throw usage(
      `--path replays one search, but there are ${pairs} scenario × configuration pairs: name one scenario and at most one --config`,
    );
  if (request.path !== undefined && !/^\d{1,9}(:\d{1,9})*$/.test(request.path))
    throw usage(
      `--path: expected fast-check's replay path (numbers separated by colons, such as "4:0:0:1"), got "${request.path}"`,
    );
  const info = await stat(request.out).catch(() => undefined);
  if (info !== undefined && !info.isDirectory())
    throw usage(`--out ${request.out}: expected a folder, but it is not one`);
  return ignore.entries;
}

/** `--crash-only` on a scenario whose agent cannot be crashed would search nothing: refused, naming it. */
function refuseCrashOnly(request: ExploreRequest, scenarios: readonly Scenario[]): void {
  if (request.crashOnly !== true) return;
  const cannot = scenarios.filter((s) => !canCrashAgent(s.agent.kind, s.agents));
  if (cannot.length === 0) return;
  throw usage(
    `--crash-only: draws crash points of the agent (crash.agent), which crashes ${CRASHABLE_TEXT}; ` +
      cannot.map((s) => `${sourceFileOf(s) ?? s.name}: ${whyNotCrashable(s.agent.kind, s.agents)}`).join('; '),
  );
}

/**
 * Explores every scenario × configuration, writes a regression scenario for each that a plan
 * broke, and says whether any did: 1 when one did, 0 when none.
 */
export async function executeExplore(request: ExploreRequest, io: Io): Promise<ExitCode> {
  const seed = request.seed === 'random' ? randomInt(0, RANDOM_SEED_MAX) : request.seed;
  if (request.seed === 'random') io.stderr.write(`faultline: random seed ${seed} (rerun with --seed ${seed})\n`);

  const interrupt = listenForInterrupt(io);
  try {
    return await exploreAll(request, seed, interrupt.signal, io, (code) =>
      interrupt.received() !== undefined ? interrupt.exitCode() : code,
    );
  } finally {
    interrupt.dispose();
  }
}

async function exploreAll(
  request: ExploreRequest,
  seed: number,
  signal: AbortSignal,
  io: Io,
  exit: (code: ExitCode) => ExitCode,
): Promise<ExitCode> {
  const scenarios = await loadFlaggedScenarios(request, io);
  const configs = await loadAll(request.config ?? [], loadConfigs, 'configuration');
  if (request.config !== undefined) {
    const note = checkConfigFlag(scenarios, configs, request.configsFrom);
    if (note !== '') io.stderr.write(`faultline: ${note}\n`);
  }
  const ignore = await refuseBadFlags(request, searchPairs(scenarios, configs).length);
  refuseCrashOnly(request, scenarios);
  await assertPeersInstalled(scenarios, configs);
  // A broken cassette is bad input, refused before the first plan (in a worker it would end each trial `crashed`).
  for (const s of scenarios) await prepareModelSource(s, 'replay', {});
  // A plan's trial that runs the user's code runs on a worker, as `run` runs trials: it cannot end or hang explore.
  const trials = new IsolatedTrials({ scenarios, configs, runSeed: seed, isolation: isolationOf(request), signal });
  try {
    return await exploreEach(request, { scenarios, configs, trials, ignore }, seed, signal, io, exit);
  } finally {
    await trials.close();
  }
}

interface Loaded {
  readonly scenarios: readonly Scenario[];
  readonly configs: readonly ExecutionConfig[];
  readonly trials: IsolatedTrials;
  readonly ignore: readonly IgnoreEntry[];
}

async function exploreEach(
  request: ExploreRequest,
  loaded: Loaded,
  seed: number,
  signal: AbortSignal,
  io: Io,
  exit: (code: ExitCode) => ExitCode,
): Promise<ExitCode> {
  const { scenarios, configs } = loaded;
  const p = painter(colorEnabled(io.stdout, io.env));
  const progress = progressLine(io);
  io.stdout.write(
    `${p.bold('faultline explore')}  seed ${seed}, up to ${request.runs} plans per scenario × ` +
      `configuration, ${matrixText(scenarios, configs)}\n\n`,
  );
  const tally: ExploreTally = { written: new Map(), searched: [], failed: 0, unexercised: 0 };
  const pairs = searchPairs(scenarios, configs);
  for (const { ci, si } of pairs) {
    const target = pairTarget(scenarios[si]!, configs[ci]!);
    if (signal.aborted) break;
    let result: ExploreResult;
    try {
      result = await searchPair(request, loaded, { ci, si }, target, { seed, signal, progress });
    } finally {
      progress.clear();
    }
    await reportPair(request, result, target, { seed, signal, p }, tally, io);
  }
  io.stdout.write(summaryLine(pairs.length, tally));
  return exit(tally.failed === 0 && tally.unexercised === 0 ? ExitCode.Ok : ExitCode.GateFailed);
}

/** A pair as its lines name it: a matrix agent's pair names the agent (the scenario is one copy, run by each agent). */
function pairTarget(scenario: Scenario, config: ExecutionConfig): PairTarget {
  const agent = matrixAgentOf(scenario);
  const label =
    `${scenario.name} × ` +
    `${agent === undefined ? config.name : agent.ignoresConfig ? agent.name : `${agent.name}/${config.name}`}`;
  return { scenario, config, agent, label };
}

/** One pair's search, its progress drawn on the line `progress` redraws. */
function searchPair(
  request: ExploreRequest,
  { trials, ignore }: Loaded,
  { ci, si }: { readonly ci: number; readonly si: number },
  { scenario, config, agent, label }: PairTarget,
  { seed, signal, progress }: { seed: number; signal: AbortSignal; progress: ReturnType<typeof progressLine> },
): Promise<ExploreResult> {
  // A failing trial's replay line names the behaviour the search gave the scenario, as run's does.
  const behaviour = overrideOf(scenario)?.behaviour;
  const refs = {
    scenario: refOf(scenario),
    config: refOf(config),
    ...(agent !== undefined && { agent: agent.name }),
    ...(behaviour !== undefined && { behaviour: describeBehaviour(behaviour) }),
  };
  return explorePlans({
    scenario,
    config,
    runs: request.runs,
    seed,
    ...(request.time !== undefined && { timeLimitMs: request.time * 1000 }),
    ...(request.path !== undefined && { path: request.path }),
    ...(request.replaceFaults === true && { replaceFaults: true }),
    ...(request.lies === true && { lies: true }),
    ...(request.crashOnly === true && { crashOnly: true }),
    ...(request.check && { checks: flagNames(request.check) }),
    ignore,
    signal,
    // The built-in library runs no code of the user's: its trials run here, where they cost a third as much.
    trial: runsUserCode([scenario])
      ? (override) => trials.run({ scenario: si, config: ci, trialIndex: 0, refs, override })
      : trialsInProcess(scenario, config, seed, refs),
    // A new phase is drawn at once, however recent the last redraw.
    onPlan: (phase, count) =>
      progress.draw(
        `explore ${label}: ${phase === 'searching' ? `plan ${count}/${request.runs}` : `shrinking, step ${count}`}`,
        phase === 'shrinking' && count === 1,
      ),
  });
}

/**
 * The scenario × configuration pairs to search, configuration-major as `run` lists its cells; a
 * matrix agent that ignores retry configurations (http, command) under the first one only.
 */
function searchPairs(
  scenarios: readonly Scenario[],
  configs: readonly ExecutionConfig[],
): { ci: number; si: number }[] {
  const runs = cellRuns(scenarios);
  return configs.flatMap((_, ci) => scenarios.flatMap((_s, si) => (runs(si, ci) ? [{ ci, si }] : [])));
}
