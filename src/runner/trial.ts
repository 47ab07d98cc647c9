import { History, Rng, VirtualClock, trialSeed, type ClockRun } from '../core/index.js';
import type { WorldSnapshot } from '../world/snapshot.js';
import { scrubSecrets } from '../core/secretText.js';
import { asExecutionConfig, type ExecutionConfigLike } from '../runtime/executionConfig.js';
import type { LoopEnd } from '../agent/loop.js';
import type { CheckResult } from '../checks/index.js';

export type { CheckResult };
import type { TrialEnd } from '../checks/record.js';
import { BUILTIN_SERVICES } from '../world/createWorld.js';
import { memoryBackend, type TrialBackend } from './backend.js';
import type { CallCap } from './CallCap.js';
import type { CrashPlan } from './crash.js';
import { executorFor as buildExecutor } from './executorFor.js';
import type { Scenario } from '../scenario/scenario.js';
import type { Cassette } from '../model/api/Cassette.js';
import { scheduleHeal } from '../scenario/heal.js';
import { endingItsOwnTrial } from '../scenario/tooDeep.js';
import { judgeRecord, scrubbed, type Judged, type TrialRefs } from './trial/judgeTrial.js';
import { liveParts } from './trial/liveParts.js';
import { crowdOf } from './trial/crowdOf.js';
import { trialAgents, type TrialStage } from './trial/trialAgents.js';
import { agentBody, onTrialTime } from './trial/agentBody.js';
import { trialEnd } from './trial/trialEnd.js';
import { trialRecord, worldSnapshotOf, type PartialTrial } from './trial/trialRecord.js';

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
  const { scenario, runSeed, trialIndex, refs, backend = memoryBackend, crash, lost, partial, watch } = options;
  const config = asExecutionConfig(options.config);
  const configName = config.name;
  const seed = trialSeed(runSeed, scenario.seedName ?? scenario.name, configName, trialIndex);
  const agent = scenario.agent;
  // A program of its own runs on the wall clock, against the world served over real HTTP.
  if (agent.kind === 'command') {
    // Loaded on first use: the served path pulls in the MCP SDK and an HTTP server, which a run of in-process trials never needs.
    const { runServedTrial } = await import('./servedTrial.js');
    let served: Cassette | undefined;
    const record = await runServedTrial({
      scenario,
      agent,
      config: configName,
      seed,
      trialIndex,
      backend,
      ...(lost && { lost }),
      onRecording: (r) => (served = r),
    });
    return judgeRecord(scenario, record, runSeed, refs, liveParts(scenario, served, options.keepRecording, record.end));
  }
  const rng = new Rng(seed);
  const startMs = startMsOf(scenario.startTime);
  const clock = new VirtualClock(startMs);
  const history = new History(clock);
  history.record({ type: 'trial_start', scenario: scenario.name, config: configName, trialIndex, seed, startMs });
  const heal = scheduleHeal(scenario, history);

  const trial = `${scenario.name}/${configName}/${trialIndex}/${seed}`;
  const world = await backend.createWorld(clock, scenario.world, scenario.services ?? BUILTIN_SERVICES, trial);
  const durable = await backend.durableStore?.(clock, trial);
  world.processes.attach(history);
  watch?.({ history, snapshot: () => world.snapshot() });
  const stage: TrialStage = { scenario, config, rng, clock, history, world, startMs };
  const agents = trialAgents(stage, heal);

  // Built before the clock runs: a library loads its module on first use, through real I/O the
  // virtual clock cannot wait for (it would call the trial hung). A crash plan builds its own
  // executors as its processes start; for a library this first one only loads the module.
  const first =
    agent.kind === 'http' || lost || scenario.agents > 1 || (crash && config.kind === 'runtime')
      ? undefined
      : await agents.executorFor(agents.transport, clock, rng.fork('runtime'), durable);
  const caps: CallCap[] = [];
  const crowd =
    scenario.agents > 1 && !crash && !lost && agent.kind !== 'http'
      ? await crowdOf(scenario, rng, (ctx) => buildExecutor(config, { ...ctx, ...agents.shared }), {
          wire: agents.wire,
          clock,
          history,
          ids: agents.ids,
          startMs,
        })
      : undefined;
  const { body, clockOptions } = agentBody(stage, agents, { crash, crowd, first, durable, caps });
  // An http agent is its own execution layer: it talks to the services over intercepted HTTP.
  let recording: Cassette | undefined;
  const runAgent = async (): Promise<ClockRun<LoopEnd>> =>
    agent.kind === 'http'
      ? await (
          await import('../agent/kinds/httpAgentRun.js')
        ).runHttpAgentTrial({
          scenario,
          run: agent.run,
          world,
          clock,
          history,
          rng,
          startMs,
          trial: { scenario: scenario.name, config: configName, trialIndex, seed },
          onRecording: (r) => (recording = r),
        })
      : await onTrialTime(config, clock, rng, () => clock.run(body, clockOptions));
  const ran =
    lost ??
    trialEnd(
      await runAgent(),
      caps.some((c) => c.tripped),
      startMs,
    );
  // R19: a process a command tool started must not outlive its trial; one that does is recorded, then killed.
  await world.processes.sweep();
  const record = trialRecord(
    { scenario: scenario.name, config: configName, trialIndex, seed },
    history,
    ran,
    await worldSnapshotOf(world),
    lost,
    partial,
  );
  return judgeRecord(
    scenario,
    record,
    runSeed,
    refs,
    liveParts(scenario, recording, options.keepRecording, record.end),
  );
}

// A run's trials share their scenario's start time: parsed once, not once per trial.
let lastStart: { readonly text: string; readonly ms: number } | undefined;
function startMsOf(text: string): number {
  if (lastStart?.text !== text) lastStart = { text, ms: Date.parse(text) };
  return lastStart.ms;
}
