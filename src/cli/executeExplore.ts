import { randomInt } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { wallMs } from '../core/clock/RealClock.js';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { BUILTIN_CHECKERS } from '../checks/index.js';
import {
  explorePlans,
  planExercise,
  trialsInProcess,
  type ExploreResult,
  type PlanCoverage,
  type PlanRuleFirings,
} from '../explore/explorePlans.js';
import { parseIgnore, type IgnoreEntry } from '../explore/failureClass.js';
import { renderRegression } from '../explore/regressionFile.js';
import { colorEnabled } from '../report/console.js';
import { failedTrialLines } from '../report/failures.js';
import { mark, painter } from '../report/paint.js';
import { shellQuote } from '../runner/replay.js';
import { loadConfigs, loadScenarios, matrixAgentOf, refOf, sourceFileOf } from '../scenario/library.js';
import { cellRuns } from '../runner/cellLabel.js';
import type { ExploreFlags } from './commands/exploreFlags.js';
import { ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import { isCi, type Io } from './io.js';
import { loadAll } from './loadAll.js';
import { pickByGrep } from './grepScenarios.js';
import { isolationOf } from './commands/isolationFlags.js';
import { IsolatedTrials } from '../runner/pool/IsolatedTrials.js';
import type { Scenario } from '../scenario/scenario.js';
import { runsUserCode } from '../agent/kinds/runsUserCode.js';
import { assertPeersInstalled } from '../agent/kinds/optionalPeers.js';
import { prepareModelSource } from '../scenario/modelSource.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import { assertWritableFolder } from './outputPaths.js';

export interface ExploreRequest extends ExploreFlags {
  readonly scenarios: readonly string[];
}

// Seeds shown in a command line should be short enough to retype.
const RANDOM_SEED_MAX = 2 ** 31 - 1;
// A redraw per trial would cost more than the trial itself.
const REDRAW_MS = 80;

const usage = (message: string): FaultlineError => new FaultlineError(FaultlineErrorCode.Usage, message);

/** `--check` and `--ignore` as lists: each repeatable, each value a comma list. */
const names = (values: readonly string[] | undefined): string[] =>
  (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim());

/**
 * Refusals that need no trial: unknown checkers, rules or classes, a checker both kept and
 * ignored, a `--path` for more than one search, an `--out` that is a file. The `--ignore` entries.
 */
async function refuseBadFlags(request: ExploreRequest, pairs: number): Promise<IgnoreEntry[]> {
  const known = BUILTIN_CHECKERS.map((c) => c.name);
  const checks = names(request.check);
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
  const scenarios = pickByGrep(
    await loadAll(request.scenarios, (refs) => loadScenarios(refs, request.project), 'scenario'),
    request.grep,
  );
  const configs = await loadAll(request.config ?? [], loadConfigs, 'configuration');
  const ignore = await refuseBadFlags(request, searchPairs(scenarios, configs).length);
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
  { scenarios, configs, trials, ignore }: Loaded,
  seed: number,
  signal: AbortSignal,
  io: Io,
  exit: (code: ExitCode) => ExitCode,
): Promise<ExitCode> {
  const p = painter(colorEnabled(io.stdout, io.env));
  const progress = progressLine(io);
  io.stdout.write(
    `${p.bold('faultline explore')}  seed ${seed}, up to ${request.runs} plans per scenario × ` +
      `configuration, ${matrixText(scenarios, configs)}\n\n`,
  );
  // Each file written, and the class it was written for.
  const written = new Map<string, string>();
  let failed = 0;
  let unexercisedPairs = 0;
  const searched: PlanCoverage[] = [];
  const pairs = searchPairs(scenarios, configs);
  for (const { ci, si } of pairs) {
    const [config, scenario] = [configs[ci]!, scenarios[si]!];
    if (signal.aborted) break;
    const agent = matrixAgentOf(scenario);
    // A matrix agent's pair names it: the scenario is one copy, run by each agent.
    const label =
      `${scenario.name} × ` +
      `${agent === undefined ? config.name : agent.ignoresConfig ? agent.name : `${agent.name}/${config.name}`}`;
    const refs = {
      scenario: refOf(scenario),
      config: refOf(config),
      ...(agent !== undefined && { agent: agent.name }),
    };
    let result: ExploreResult;
    try {
      result = await explorePlans({
        scenario,
        config,
        runs: request.runs,
        seed,
        ...(request.time !== undefined && { timeLimitMs: request.time * 1000 }),
        ...(request.path !== undefined && { path: request.path }),
        ...(request.replaceFaults === true && { replaceFaults: true }),
        ...(request.lies === true && { lies: true }),
        ...(request.check && { checks: names(request.check) }),
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
    } finally {
      progress.clear();
    }
    searched.push(...result.plans);
    const streams = result.streamed.length > 0 ? `; stream faults on ${result.streamed.join(', ')}` : '';
    // Plans none of whose rules fired tested nothing: a search in which none fired held vacuously.
    const silent = result.plans.length > 0 && result.plans.every((c) => planExercise(c) === 'none');
    if (silent) unexercisedPairs++;
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
      io.stdout.write(`${mark(p, !silent)} ${label}: ${result.runs} plans, none failed${cut}${coverage}${streams}\n`);
      continue;
    }
    failed++;
    if (result.baseline !== undefined) {
      const { classes, trial } = result.baseline;
      io.stdout.write(
        `${mark(p, false)} ${label}: fails with no added fault (${classes.join(', ')}): faultline run ` +
          `${shellQuote(refOf(scenario))} --config ${shellQuote(refOf(config))} --seed ` +
          `${seed}${agent === undefined ? '' : ` --agent ${shellQuote(agent.name)}`}\n`,
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
    const cut = result.interrupted ? `, stopped by ${signal.aborted ? 'a signal' : '--time'}` : '';
    const found = result.findings.length + result.unshrunk.length;
    const head = `${mark(p, found === 0 && !silent)} ${label}: ${result.runs} plan${result.runs === 1 ? '' : 's'}${cut}`;
    const other = result.baseline ? 'other ' : '';
    const failures = [...result.findings.map((f) => f.failure), ...result.unshrunk].join(', ');
    const classes =
      found === 0
        ? `no ${other}failure class`
        : `${found} ${other}failure class${found === 1 ? '' : 'es'}: ${failures}`;
    io.stdout.write(`${head}, ${classes}${streams}\n`);
    if (result.plans.length > 0)
      io.stdout.write(
        `    plans tried: ${exercisedText(result.plans)}${silent ? ': not one generated rule fired, so the search tested nothing' : ''}\n`,
      );
    await writeRegressions(request, result, { scenario, config, agent, label }, written, p, io);
    if (result.unshrunk.length > 0)
      io.stdout.write(`    not shrunk, the search was stopped first: ${result.unshrunk.join(', ')}\n`);
  }
  const pairCount = pairs.length;
  const silent =
    unexercisedPairs > 0 ? `; ${unexercisedPairs} not exercised (no generated rule fired in any plan)` : '';
  const coverage = searched.length > 0 ? `; ${exercisedText(searched)}` : '';
  const pairsText = `${pairCount} scenario × configuration pair${pairCount === 1 ? '' : 's'}`;
  const regressions = written.size > 0 ? `; regressions: ${[...written.keys()].join(', ')}` : '';
  io.stdout.write(
    failed === 0
      ? `\nexplore: no failing plan in ${pairsText}${silent}${coverage}\n`
      : `\nexplore: ${failed} of ${pairsText} failed${silent}${coverage}${regressions}\n`,
  );
  return exit(failed === 0 && unexercisedPairs === 0 ? ExitCode.Ok : ExitCode.GateFailed);
}

/** Each finding of a pair: printed, and its regression file written once (two classes shrunk to one plan share it). */
async function writeRegressions(
  request: ExploreRequest,
  result: Extract<ExploreResult, { kind: 'failed' }>,
  {
    scenario,
    config,
    agent,
    label,
  }: {
    readonly scenario: Scenario;
    readonly config: ExecutionConfig;
    readonly agent: ReturnType<typeof matrixAgentOf>;
    readonly label: string;
  },
  written: Map<string, string>,
  p: ReturnType<typeof painter>,
  io: Io,
): Promise<void> {
  for (const finding of result.findings) {
    await assertWritableFolder(request.out, '--out');
    const file = await renderRegression(
      { ...result, ...finding },
      {
        scenario: refOf(scenario),
        config: refOf(config),
        outDir: request.out,
        source: sourceFileOf(scenario),
        runs: request.runs,
        flags: searchFlags(request),
        ...(agent !== undefined && { agent: agent.name }),
      },
    );
    const rules = finding.plan.length;
    io.stdout.write(
      `${mark(p, false)} ${label}: ${finding.failure} at plan ${finding.foundAt}; shrunk in ` +
        `${finding.shrinks} steps to ${rules} fault rule${rules === 1 ? '' : 's'}\n`,
    );
    io.stdout.write(
      `${stringify(finding.plan, { lineWidth: 0 })
        .trimEnd()
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n')}\n`,
    );
    const offset = finding.regression.faults.length - finding.plan.length;
    io.stdout.write(`    fired in the failing trial: ${firedText(finding.fired, offset)}\n`);
    // The trial as the regression file names it, so its replay line runs the file.
    const trial = { ...finding.trial, refs: { scenario: file.file, config: refOf(config) } };
    io.stdout.write(
      `${failedTrialLines(trial)
        .map((l) => `    ${l}`)
        .join('\n')}\n`,
    );
    // Two classes shrunk to one plan share its file (the name is the plan's content).
    const shared = written.get(file.file);
    if (shared !== undefined) {
      io.stdout.write(
        `    regression: ${file.file} (the same plan as ${shared})\n    reproduce:  ${file.runCommand}\n`,
      );
      continue;
    }
    await mkdir(request.out, { recursive: true });
    // A file of that name that differs was written for another scenario file or by another faultline.
    const before = await readFile(file.file, 'utf8').catch(() => undefined);
    await writeFile(file.file, file.text);
    written.set(file.file, finding.failure);
    const replaced =
      before !== undefined && before !== file.text
        ? ' (replaced a different file of the same name)'
        : before === file.text
          ? ' (unchanged: the same plan was kept before)'
          : '';
    io.stdout.write(`    regression: ${file.file}${replaced}\n    reproduce:  ${file.runCommand}\n`);
  }
}

/** What a search covers: its scenarios, the matrix agents among them, its configurations. */
function matrixText(scenarios: readonly Scenario[], configs: readonly ExecutionConfig[]): string {
  const scenarioCount = new Set(scenarios.map((s) => s.name)).size;
  const agents = new Set(scenarios.flatMap((s) => matrixAgentOf(s)?.name ?? [])).size;
  return (
    `${scenarioCount} scenario${scenarioCount === 1 ? '' : 's'}${agents > 0 ? ` × ${agents} agent${agents === 1 ? '' : 's'}` : ''} × ` +
    `${configs.length} configuration${configs.length === 1 ? '' : 's'}`
  );
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

/** `faults[1] (any tool, duplicate) 2×, faults[2] (create_order call 3, timeout) never (expect: may-not-fire)`. */
const firedText = (fired: readonly PlanRuleFirings[], offset: number): string =>
  fired.every((r) => r.firings === 0)
    ? `none of its rules, run again (is the agent on the wall clock? its trial is not deterministic)`
    : fired
        .map(
          (r) =>
            `faults[${offset + r.rule}] (${r.label}) ${r.firings > 0 ? `${r.firings}×` : 'never (expect: may-not-fire)'}`,
        )
        .join(', ');

/** The flags besides seed and runs that change what a search finds, as a command line repeats them. */
const searchFlags = (request: ExploreRequest): string[] => [
  ...(request.replaceFaults === true ? ['--replace-faults'] : []),
  ...(request.lies === true ? ['--lies'] : []),
  ...names(request.check).flatMap((c) => ['--check', c]),
  ...names(request.ignore).flatMap((c) => ['--ignore', c]),
];

/** One redrawn line on stderr when it is a terminal (not in CI); nothing otherwise. */
function progressLine(io: Io): { draw(text: string, now?: boolean): void; clear(): void } {
  const on = io.stderr.isTTY === true && !isCi(io.env);
  let last = -Infinity;
  let drawn = false;
  return {
    draw(text, force = false) {
      if (!on) return;
      const t = wallMs();
      if (!force && t - last < REDRAW_MS) return;
      last = t;
      const max = Math.max(20, (io.stderr.columns || 80) - 1);
      io.stderr.write(`\r\u001b[2K${[...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text}`);
      drawn = true;
    },
    clear() {
      if (drawn) io.stderr.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
