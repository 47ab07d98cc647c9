import { History, Rng, VirtualClock, trialSeed, type ClockRun } from '../core/index.js';
import type { WorldSnapshot } from '../world/snapshot.js';
import { scrubSecrets } from '../core/secretText.js';
import { asExecutionConfig, type ExecutionConfig, type ExecutionConfigLike } from '../runtime/executionConfig.js';
import type { OperationStore } from '../runtime/idempotency/OperationStore.js';
import type { LoopEnd } from '../agent/loop.js';
import type { CheckResult } from '../checks/index.js';

export type { CheckResult };
import type { TrialEnd } from '../checks/record.js';
import { BUILTIN_SERVICES } from '../world/createWorld.js';
import { memoryBackend, type TrialBackend } from './backend.js';
import type { CrashPlan } from './crash.js';
import type { CommandAgentSpec, Scenario } from '../scenario/scenario.js';
import type { Cassette } from '../model/api/Cassette.js';
import { scheduleHeal } from '../scenario/heal.js';
import { endingItsOwnTrial } from '../scenario/tooDeep.js';
import { judgeRecord, scrubbed, type Judged, type TrialRefs } from './trial/judgeTrial.js';
import { liveParts } from './trial/liveParts.js';
import { trialAgents, type TrialStage } from './trial/trialAgents.js';
import { agentBody, agentPlanOf, onTrialTime } from './trial/agentBody.js';
import { trialEnd } from './trial/trialEnd.js';
import { trialRecord, worldSnapshotOf, type PartialTrial, type TrialName } from './trial/trialRecord.js';

import type { TrialCommon, TrialResult, TrialStatus, TrialSummary } from '../stats/trialResult.js';

export type { TrialResult, TrialStatus, TrialSummary, PartialTrial };
export { checkersOf, expectationsOf, judgeTrial } from './trial/judgeTrial.js';

/** Drops the snapshot, and the history too unless `withHistory` (a run keeps few histories). */
export function summarise(trial: TrialResult, withHistory: boolean): TrialSummary {
  const { snapshot: _snapshot, exchanges, ...rest } = trial;
  // The exchanges go with the history: kept for the trials a report shows in full.
  return withHistory ? { ...rest, ...(exchanges && { exchanges }) } : { ...rest, history: [] };
}

export interface TrialOptions {
  readonly scenario: Scenario;
  /** The execution layer under test: the reference runtime's configuration, or a library's (see `ExecutionConfig`). */
  readonly config: ExecutionConfigLike;
  readonly runSeed: number;
  readonly trialIndex: number;
  /** Command-line names for the replay command (default: the scenario's and configuration's names). */
  readonly refs?: TrialRefs;
  /** Where the world and the operation records live (default: in memory). */
  readonly backend?: TrialBackend;
  /**
   * Kill the agent process mid-trial (R22, R25): after the plan's effect, a second process
   * (a fresh executor and agent, the same plan) takes over; it shares the backend's durable
   * store if there is one, and calls `Executor.resume` before its first call.
   */
  readonly crash?: CrashPlan;
  /**
   * The trial's worker died or stalled (see `runner/pool`): the trial is judged with this end,
   * from its fresh world, since whatever the agent did went down with the worker.
   */
  readonly lost?: Extract<TrialEnd, { kind: 'crashed' | 'hung' }>;
  /**
   * With `lost`: what the trial did before its worker died or stalled (its history so far, the
   * world then when known), so the verdicts judge what happened, not a fresh world.
   */
  readonly partial?: PartialTrial;
  /** Called once the trial's world and history exist: a worker keeps them to report what a trial did if it dies. */
  readonly watch?: (live: LiveTrial) => void;
  /**
   * Keeps a live trial's recording (its secrets sealed), synchronously, and answers where: a live
   * run writes them beside its report (`recordingFile`). Without it, a recording is not kept.
   */
  readonly keepRecording?: (recording: Cassette) => string;
}

/** A trial in progress: its history, and its world's state now. */
export interface LiveTrial {
  readonly history: History;
  snapshot(): WorldSnapshot;
}

/**
 * One trial: a fresh world, clock, rng and history; the agent runs on virtual time
 * until it ends, crashes, hangs or runs out of budget; then every checker judges it, and the
 * result is scrubbed of secrets (R13). Nothing the agent does can end the run: its failures
 * become this trial's verdict.
 */
export async function runTrial(options: TrialOptions): Promise<TrialResult> {
  return endingItsOwnTrial(options, async (o) => scrubbed(await runJudged(o)));
}

/**
 * A trial as a run keeps it: `summarise`d (its history kept when `withHistory` says so for its
 * status), and only then scrubbed of secrets. The same summary as `summarise(await runTrial(…))`,
 * without scanning the history and world of a trial whose history is dropped.
 */
export function runTrialSummary(
  options: TrialOptions,
  withHistory: (status: TrialStatus) => boolean,
): Promise<TrialSummary> {
  return endingItsOwnTrial(options, (o) => summaryOf(o, withHistory));
}

async function summaryOf(options: TrialOptions, withHistory: (status: TrialStatus) => boolean): Promise<TrialSummary> {
  const { common, verdict, secrets } = await runJudged(options);
  const { snapshot: _snapshot, exchanges, ...rest } = common;
  const kept = withHistory(verdict.status) ? { ...rest, ...(exchanges && { exchanges }) } : { ...rest, history: [] };
  const { exchanges: scrubbedExchanges, ...scrubbedRest } = scrubSecrets(kept, secrets) as typeof kept & {
    readonly exchanges?: TrialCommon['exchanges'];
  };
  // Keys in `summarise`'s order: the record's, the verdict's, then the exchanges.
  return Object.assign(
    {},
    scrubbedRest,
    verdict,
    scrubbedExchanges && { exchanges: scrubbedExchanges },
  ) as TrialSummary;
}

/** What a trial in process judges: its record, and the live parts of an http agent's trial. */
async function runJudged(options: TrialOptions): Promise<Judged> {
  const { scenario, runSeed, trialIndex, refs, lost, partial } = options;
  const config = asExecutionConfig(options.config);
  const seed = trialSeed(runSeed, scenario.seedName ?? scenario.name, config.name, trialIndex);
  // A program of its own runs on the wall clock, against the world served over real HTTP.
  if (scenario.agent.kind === 'command') return judgeServed(options, scenario.agent, config.name, seed);
  const name: TrialName = { scenario: scenario.name, config: config.name, trialIndex, seed };
  const { stage, durable } = await openStage(options, config, seed);
  const { ran, recording } = await runAgents(stage, name, options, durable);
  // R19: a process a command tool started must not outlive its trial; one that does is recorded, then killed.
  await stage.world.processes.sweep();
  const record = trialRecord(name, stage.history, ran, await worldSnapshotOf(stage.world), lost, partial);
  return judgeRecord(
    scenario,
    record,
    runSeed,
    refs,
    liveParts(scenario, recording, options.keepRecording, record.end),
  );
}

/** A `command` agent's trial, served on real sockets by a module of its own, judged as any other. */
async function judgeServed(
  options: TrialOptions,
  agent: CommandAgentSpec,
  config: string,
  seed: number,
): Promise<Judged> {
  const { scenario, runSeed, trialIndex, refs, backend = memoryBackend, lost } = options;
  // Loaded on first use: the served path pulls in the MCP SDK and an HTTP server, which a run of in-process trials never needs.
  const { runServedTrial } = await import('./servedTrial.js');
  let served: Cassette | undefined;
  const record = await runServedTrial({
    scenario,
    agent,
    config,
    seed,
    trialIndex,
    backend,
    ...(lost && { lost }),
    onRecording: (r) => (served = r),
  });
  return judgeRecord(scenario, record, runSeed, refs, liveParts(scenario, served, options.keepRecording, record.end));
}

/** The trial's fresh rng, virtual clock, history (opened with `trial_start`, the heal marked) and world. */
async function openStage(
  options: TrialOptions,
  config: ExecutionConfig,
  seed: number,
): Promise<{ readonly stage: TrialStage; readonly durable: OperationStore | undefined }> {
  const { scenario, trialIndex, backend = memoryBackend, watch } = options;
  const rng = new Rng(seed);
  const startMs = startMsOf(scenario.startTime);
  const clock = new VirtualClock(startMs);
  const history = new History(clock);
  history.record({ type: 'trial_start', scenario: scenario.name, config: config.name, trialIndex, seed, startMs });
  scheduleHeal(scenario, history);
  const trial = `${scenario.name}/${config.name}/${trialIndex}/${seed}`;
  const world = await backend.createWorld(clock, scenario.world, scenario.services ?? BUILTIN_SERVICES, trial);
  const durable = await backend.durableStore?.(clock, trial);
  world.processes.attach(history);
  world.kv.attach(history);
  watch?.({ history, snapshot: () => world.snapshot() });
  return { stage: { scenario, config, rng, clock, history, world, startMs }, durable };
}

/**
 * The trial's agents, run until they end: an http agent over intercepted HTTP (it is its own
 * execution layer), the others on the trial's clock. A trial whose worker was lost runs none.
 */
async function runAgents(
  stage: TrialStage,
  name: TrialName,
  { crash, lost }: TrialOptions,
  durable: OperationStore | undefined,
): Promise<{ readonly ran: TrialEnd; readonly recording: Cassette | undefined }> {
  const { scenario, config, rng, clock, startMs } = stage;
  const agents = trialAgents(stage);
  const plan = await agentPlanOf(stage, agents, { crash, lost, durable, trial: name });
  const { body, clockOptions } = agentBody(stage, agents, plan);
  let recording: Cassette | undefined;
  const agent = scenario.agent;
  const runAgent = async (): Promise<ClockRun<LoopEnd>> =>
    agent.kind === 'http'
      ? await (
          await import('../agent/kinds/httpAgentRun.js')
        ).runHttpAgentTrial({ ...stage, run: agent.run, trial: name, onRecording: (r) => (recording = r) })
      : await onTrialTime(config, clock, rng, () => clock.run(body, clockOptions));
  const ran =
    lost ??
    trialEnd(
      await runAgent(),
      plan.caps.some((c) => c.tripped),
      startMs,
    );
  return { ran, recording };
}

// A run's trials share their scenario's start time: parsed once, not once per trial.
let lastStart: { readonly text: string; readonly ms: number } | undefined;
function startMsOf(text: string): number {
  if (lastStart?.text !== text) lastStart = { text, ms: Date.parse(text) };
  return lastStart.ms;
}
