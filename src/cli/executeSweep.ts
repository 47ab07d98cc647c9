import { randomInt } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { wallMs } from '../core/clock/RealClock.js';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import { loadConfigs, matrixAgentOf, refOf, sourceFileOf } from '../scenario/library.js';
import { CRASHABLE_TEXT, canCrashAgent, whyNotCrashable, type AgentCrashTrigger } from '../scenario/agentCrash.js';
import { cellLabeller } from '../runner/cellLabel.js';
import { checkConfigFlag } from '../runner/notApplicable.js';
import { defaultWorkers, type IsolationOptions } from '../runner/pool/runOnWorkers.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ScenarioProject } from '../scenario/project.js';
import { runsUserCode } from '../agent/kinds/runsUserCode.js';
import { assertPeersInstalled } from '../agent/kinds/optionalPeers.js';
import { prepareModelSource } from '../scenario/modelSource.js';
import { runSweep, sweepTrials, type SweepResult } from '../sweep/runSweep.js';
import {
  pointSeed,
  sweepPlan,
  sweepSeries,
  withCrashPoints,
  crashedAt,
  type SweepFault,
  type SweepSeries,
  type SweepTarget,
} from '../sweep/sweepFaults.js';
import { impossibleGates, withCoverageGate, type Gate } from '../stats/gates.js';
import { evaluateSweepGates, type SweepGates } from '../sweep/sweepGates.js';
import { colorEnabled } from '../report/console.js';
import { formatRate } from '../report/format.js';
import { renderHtmlReport } from '../report/html/renderHtmlReport.js';
import { renderSweepConsole } from '../report/sweep/sweepConsole.js';
import { sweepHtmlReport } from '../report/sweep/sweepHtml.js';
import { buildSweepJson, renderSweepJson } from '../report/sweep/sweepJson.js';
import { renderSweepMarkdown } from '../report/sweep/sweepMarkdown.js';
import { writeReportAtomic } from '../report/write.js';
import { ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import type { Io } from './io.js';
import type { SeedOption } from './options.js';
import { assertAppendable, assertWritableFolder } from './outputPaths.js';
import { printTrial } from './printTrial.js';
import { replayIsolated } from './replayIsolated.js';
import { loadFlaggedScenarios } from './loadFlaggedScenarios.js';

/** The reports a sweep writes: a table on the terminal, sweep.json, sweep.md and sweep.html. */
export const SWEEP_REPORTERS = ['console', 'json', 'markdown', 'html'] as const;
export type SweepReporter = (typeof SWEEP_REPORTERS)[number];
const FILES: Record<Exclude<SweepReporter, 'console'>, string> = {
  json: 'sweep.json',
  markdown: 'sweep.md',
  html: 'sweep.html',
};

/** `faultline sweep`, flags parsed. */
export interface SweepRequest {
  readonly scenarios: readonly string[];
  /** The config file's `defaults` and `agents`, applied to every scenario loaded. */
  readonly project?: ScenarioProject;
  readonly configs: readonly string[];
  /** `--config` was typed (else `configs` is the default): configurations no agent would use are refused. */
  readonly configsGiven?: boolean;
  /** The config file `configs` came from (its `retryConfigs`, not `--config`): a note, not a refusal. */
  readonly configsFrom?: string;
  /** `--behaviour`, as typed: the scripted stand-in's behaviour in every scenario. */
  readonly behaviour?: readonly string[];
  readonly k: number;
  /** The config file k came from (not --k): a refusal names it. */
  readonly kFrom?: string;
  readonly seed: SeedOption;
  readonly faults: readonly SweepFault[];
  /** `--crash`: each series again under each crash point of the agent. */
  readonly crashes?: readonly AgentCrashTrigger[];
  readonly mix: boolean;
  readonly target: SweepTarget;
  readonly lambdas: readonly number[];
  readonly outDir: string;
  readonly reporters: readonly SweepReporter[];
  readonly grep?: RegExp;
  /** Worker threads per point (default: as `run` chooses them); 0 runs the trials in this process. */
  readonly workers?: number;
  /** Gates judged at every point up to λ = `gateUpTo` (none by default: a sweep is a measurement). */
  readonly gates?: readonly Gate[];
  readonly gateUpTo?: number;
  /** The sweep's own rules may fire in no trial of a point (see `judgePointCoverage`). */
  readonly mayNotFire?: boolean;
  /** The watchdog and heap limit of the workers (`--trial-timeout`, `--worker-heap`). */
  readonly isolation?: IsolationOptions;
}

// Seeds shown in a command line should be short enough to retype (as `run` picks them).
const RANDOM_SEED_MAX = 2 ** 31 - 1;

const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
};

function seriesOf(request: Pick<SweepRequest, 'faults' | 'mix' | 'crashes'>): SweepSeries[] {
  const series = sweepSeries(request.faults, request.mix);
  if (typeof series === 'string') throw new FaultlineError(FaultlineErrorCode.Usage, series);
  return withCrashPoints(series, request.crashes ?? []);
}

/** `--crash` on a scenario whose agent cannot be crashed would sweep nothing of it: refused, naming it. */
function refuseUncrashable(scenarios: readonly Scenario[], crashes: readonly AgentCrashTrigger[]): void {
  const cannot = crashes.length === 0 ? [] : scenarios.filter((s) => !canCrashAgent(s.agent.kind, s.agents));
  if (cannot.length === 0) return;
  throw new FaultlineError(
    FaultlineErrorCode.Usage,
    `--crash: crashes the agent (crash.agent), which needs ${CRASHABLE_TEXT}; ` +
      cannot.map((s) => `${sourceFileOf(s) ?? s.name}: ${whyNotCrashable(s.agent.kind, s.agents)}`).join('; '),
  );
}

async function load(
  request: Pick<
    SweepRequest,
    'scenarios' | 'configs' | 'configsGiven' | 'configsFrom' | 'grep' | 'project' | 'behaviour' | 'crashes'
  >,
  io: Io,
): Promise<{ scenarios: Scenario[]; configs: ExecutionConfig[] }> {
  const scenarios = await loadFlaggedScenarios(request, io);
  refuseUncrashable(scenarios, request.crashes ?? []);
  const configs = await loadConfigs(request.configs);
  if (request.configsGiven === true) {
    const note = checkConfigFlag(scenarios, configs, request.configsFrom);
    if (note !== '') io.stderr.write(`faultline: ${note}\n`);
  }
  await assertPeersInstalled(scenarios, configs);
  // A broken cassette is bad input, refused before the first trial (in a worker it would end each trial `crashed`).
  for (const s of scenarios) await prepareModelSource(s, 'replay', {});
  return { scenarios, configs };
}

/** Runs the sweep, writes its reports (also after a stop signal, for what finished) and prints its tables. */
export async function executeSweep(request: SweepRequest, io: Io): Promise<ExitCode> {
  const seed = request.seed === 'random' ? randomInt(0, RANDOM_SEED_MAX) : request.seed;
  if (request.seed === 'random') io.stderr.write(`faultline: random seed ${seed} (rerun with --seed ${seed})\n`);
  const series = seriesOf(request);
  const interrupt = listenForInterrupt(io);
  try {
    const { scenarios, configs } = await load(request, io);
    // A sweep is a measurement: no gate unless one is named, and then coverage beside it, as `run` judges it.
    const gates = request.gates && request.gates.length > 0 ? withCoverageGate(request.gates) : [];
    const problems = impossibleGates(gates, {
      k: request.k,
      ...(request.kFrom !== undefined && { kFrom: `${request.kFrom}: k` }),
      scenarios: scenarios.map((s) => s.name),
      configs: configs.map((c) => c.name),
    });
    if (problems.length > 0) throw new FaultlineError(FaultlineErrorCode.Usage, problems.join('\n'));
    if (request.gateUpTo !== undefined && gates.length === 0)
      throw new FaultlineError(
        FaultlineErrorCode.Usage,
        '--gate-up-to bounds the λ the gates are judged at: give at least one --gate',
      );
    const files = request.reporters.filter((r): r is Exclude<SweepReporter, 'console'> => r !== 'console');
    if (files.length > 0) await assertWritableFolder(request.outDir, '--out');
    const stepSummary = io.env['GITHUB_STEP_SUMMARY'];
    if (stepSummary) await assertAppendable(stepSummary, 'GITHUB_STEP_SUMMARY');

    const options = {
      scenarios,
      configs,
      k: request.k,
      seed,
      lambdas: request.lambdas,
      series,
      target: request.target,
      mayNotFire: request.mayNotFire === true,
    };
    const total = sweepTrials(options);
    let done = 0;
    const started = wallMs();
    const result = await runSweep({
      ...options,
      workers: (trials) => request.workers ?? (runsUserCode(scenarios) ? defaultWorkers(trials) : 0),
      ...(request.isolation && { isolation: request.isolation }),
      signal: interrupt.signal,
      onPoint: (s, point) => {
        done += point.run.cells.reduce((a, c) => a + c.metrics.trials, 0);
        const figures = point.run.byConfig
          .map((m) => `${m.config} ${formatRate(m.passHat[0])}/${formatRate(m.passHat[request.k - 1])}`)
          .join(', ');
        io.stderr.write(
          `faultline sweep: ${s.label} λ=${point.lambda}: pass^1/pass^${request.k} ${figures} [${done}/${total} trials]\n`,
        );
      },
    });
    const seconds = (wallMs() - started) / 1000;
    io.stderr.write(
      `faultline sweep: ${done} trials in ${seconds.toFixed(2)} s (${Math.round(done / Math.max(seconds, 1e-3))} trials/s)\n`,
    );
    const judged = evaluateSweepGates(result, gates, request.gateUpTo);
    const written = await writeSweepReports(result, judged, request, io);
    if (written.length > 0) io.stdout.write(`\nreports: ${written.map(shown).join(', ')}\n`);
    if (stepSummary) await appendFile(stepSummary, `${renderSweepMarkdown(result, judged)}\n`);
    if (result.interrupted || interrupt.received() !== undefined) {
      io.stderr.write(`faultline: interrupted; the reports cover the ${done} trials that finished\n`);
      return interrupt.exitCode();
    }
    return judged.passed ? ExitCode.Ok : ExitCode.GateFailed;
  } finally {
    interrupt.dispose();
  }
}

async function writeSweepReports(
  result: SweepResult,
  gates: SweepGates,
  request: SweepRequest,
  io: Io,
): Promise<string[]> {
  const paths: string[] = [];
  for (const reporter of request.reporters) {
    if (reporter === 'console') {
      io.stdout.write(renderSweepConsole(result, { color: colorEnabled(io.stdout, io.env), gates }));
      continue;
    }
    const text =
      reporter === 'json'
        ? renderSweepJson(result, gates)
        : reporter === 'markdown'
          ? renderSweepMarkdown(result, gates)
          : renderHtmlReport(sweepHtmlReport(buildSweepJson(result, gates)));
    const path = join(request.outDir, FILES[reporter]);
    await writeReportAtomic(path, text);
    paths.push(path);
  }
  return paths;
}

/**
 * `faultline sweep … --lambda L --replay I`: trial I of one scenario under one configuration,
 * with the one series' faults at λ = L, exactly as the sweep ran it. Exit 0 when it passes, 1 when it fails.
 */
export async function executeSweepReplay(
  request: Omit<SweepRequest, 'reporters' | 'outDir' | 'k' | 'gates' | 'gateUpTo' | 'mayNotFire'>,
  trialIndex: number,
  json: boolean,
  io: Io,
): Promise<ExitCode> {
  const usage = (message: string): FaultlineError =>
    new FaultlineError(FaultlineErrorCode.Usage, `--replay reruns one trial: ${message}`);
  if (request.seed === 'random') throw usage('it needs the seed of the sweep it reproduces (--seed <n>), not "random"');
  const seed = request.seed;
  const series = seriesOf(request);
  if (series.length !== 1)
    throw usage(
      `name one series (one --fault, or several with --mix), not ${series.length}: ${series.map((s) => s.label).join(', ')}`,
    );
  const [lambda, ...moreLambdas] = request.lambdas;
  if (lambda === undefined || moreLambdas.length > 0)
    throw usage(`name one λ (--lambda 0.3), not ${request.lambdas.length}: ${request.lambdas.join(', ')}`);
  const { scenarios, configs } = await load(request, io);
  const agents = scenarios.flatMap((s) => matrixAgentOf(s)?.name ?? []);
  if (scenarios.length !== 1) {
    throw usage(
      agents.length > 0
        ? `name one agent of faultline.config.ts's agents (--agent), not ${agents.length} (${agents.join(', ')})`
        : `name one scenario, not ${scenarios.length} (${scenarios.map((s) => s.name).join(', ')})`,
    );
  }
  if (configs.length !== 1)
    throw usage(`name one configuration (--config), not ${configs.length} (${configs.map((c) => c.name).join(', ')})`);
  const [loaded, config] = [scenarios[0]!, configs[0]!];
  const s = crashedAt(loaded, series[0]!);
  const runSeed = pointSeed(seed, series[0]!.label, lambda);
  const trial = await replayIsolated(
    {
      scenario: s,
      config,
      runSeed,
      trialIndex,
      refs: {
        scenario: refOf(s),
        config: refOf(config),
        ...(agents[0] !== undefined && { agent: agents[0] }),
        ...(request.behaviour !== undefined && { behaviour: request.behaviour.join(',') }),
      },
      addedFaults: sweepPlan(series[0]!, lambda, request.target),
      isolation: request.isolation ?? {},
    },
    io,
  );
  if (typeof trial === 'number') return trial;
  printTrial(
    trial,
    io,
    json,
    (p, status) =>
      `${p.bold('faultline sweep --replay')}  ${s.name} × ${cellLabeller([s], [config])(s, config.name)}, ` +
      `${series[0]!.label} at λ=${lambda}, seed ${seed} (point seed ${runSeed}), trial ${trialIndex}: ${status}`,
  );
  return trial.status === 'passed' ? ExitCode.Ok : ExitCode.GateFailed;
}
