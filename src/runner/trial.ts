import { canonicalJson, History, IdSource, Rng, sha256, VirtualClock, trialSeed, type Clock, type ClockRun, type HistoryEvent, type Transport } from '../core/index.js';
import { ServiceCodeError } from '../world/define/defineService.js';
import type { World } from '../world/World.js';
import type { WorldSnapshot } from '../world/snapshot.js';
import { scrubSecrets } from '../core/secretText.js';
import { ClientRetries } from '../faults/ClientRetries.js';
import { Wire } from '../faults/Wire.js';
import { NetworkLatency } from '../faults/network.js';
import { installVirtualTimers } from '../core/clock/globalTimers.js';
import type { Executor } from '../runtime/Executor.js';
import { asExecutionConfig, type ExecutionConfigLike } from '../runtime/executionConfig.js';
import type { OperationStore } from '../runtime/idempotency/OperationStore.js';
import type { ToolExecutor } from '../runtime/ToolExecutor.js';
import { runAgentLoop, type LoopEnd } from '../agent/loop.js';
import { runAgentFunction } from '../agent/agentFunction.js';
import { planForAgent, withAgentIndex } from '../agent/agentIndex.js';
import { arrivalOffsets } from '../scenario/arrival.js';
import { ScriptedModel } from '../model/ScriptedModel.js';
import { runCheckers, BUILTIN_CHECKERS, measureRecovery, TrialIndex, type CheckResult } from '../checks/index.js';

export type { CheckResult };
import type { Checker } from '../checks/checker.js';
import type { Expectations, TrialEnd, TrialRecord } from '../checks/record.js';
import { BUILTIN_SERVICES } from '../world/createWorld.js';
import { memoryBackend, type TrialBackend } from './backend.js';
import { CallCap } from './CallCap.js';
import { runWithCrash, type CrashPlan } from './crash.js';
import { withAgentRepeats } from '../agent/kinds/AgentRepeats.js';
import { executorFor as buildExecutor, type ExecutorContext } from './executorFor.js';
import { clientPoliciesFor, NO_CLIENT_POLICIES } from '../runtime/retry/client/ClientPolicies.js';
import { withGlobalTimers } from './globalTimersLock.js';
import type { Scenario } from '../scenario/scenario.js';
import { INFRA_ERROR_CODE } from '../core/infraError.js';
import { currentLiveRun } from '../scenario/modelSource.js';
import { Cassette } from '../model/api/Cassette.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { modelExchanges } from '../model/api/modelExchanges.js';
import { sealSecrets } from '../model/api/cassetteSecrets.js';
import { dirname, join } from 'node:path';
import { trialStats, type TrialStats } from '../stats/trialStats.js';
import { scheduleHeal } from '../scenario/heal.js';
import { endingItsOwnTrial } from '../scenario/tooDeep.js';

import type { TrialCommon, TrialResult, TrialStatus, TrialSummary } from '../stats/trialResult.js';

export type { TrialResult, TrialStatus, TrialSummary };

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
  readonly refs?: { readonly scenario: string; readonly config: string; readonly agent?: string };
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
}

/** A trial in progress: its history, and its world's state now. */
export interface LiveTrial {
  readonly history: History;
  snapshot(): WorldSnapshot;
}

/** What a trial did before its worker died or stalled: the history so far and, when it could be taken, the world's state then. */
export interface PartialTrial {
  readonly history: readonly HistoryEvent[];
  readonly snapshot?: WorldSnapshot;
}

/** What each scenario's checkers are told to expect. */
export function expectationsOf(scenario: Scenario): Expectations {
  return { goal: scenario.goal, budget: scenario.budget, secrets: scenario.secrets, ...(scenario.heal && { heal: scenario.heal }), ...(scenario.recovery && { recovery: scenario.recovery }) };
}

// `recovery` judges a recovery expectation: a scenario without one is not judged by it (nor reported under it).
// Listed once, not filtered again for every trial.
const WITHOUT_RECOVERY: readonly Checker[] = Object.freeze(BUILTIN_CHECKERS.filter((c) => c.name !== 'recovery'));

export function checkersOf(scenario: Scenario): readonly Checker[] {
  // The scenario schema only admits built-in names, so the filter drops nothing.
  if (scenario.checks) return BUILTIN_CHECKERS.filter((c) => scenario.checks?.includes(c.name));
  return scenario.recovery ? BUILTIN_CHECKERS : WITHOUT_RECOVERY;
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
export function runTrialSummary(options: TrialOptions, withHistory: (status: TrialStatus) => boolean): Promise<TrialSummary> {
  return endingItsOwnTrial(options, (o) => summaryOf(o, withHistory));
}

async function summaryOf(options: TrialOptions, withHistory: (status: TrialStatus) => boolean): Promise<TrialSummary> {
  const { common, verdict, secrets } = await runJudged(options);
  const { snapshot: _snapshot, exchanges, ...rest } = common;
  const kept = withHistory(verdict.status) ? { ...rest, ...(exchanges && { exchanges }) } : { ...rest, history: [] };
  const { exchanges: scrubbedExchanges, ...scrubbedRest } = scrubSecrets(kept, secrets) as typeof kept & { readonly exchanges?: TrialCommon['exchanges'] };
  // Keys in `summarise`'s order: the record's, the verdict's, then the exchanges.
  return Object.assign({}, scrubbedRest, verdict, scrubbedExchanges && { exchanges: scrubbedExchanges }) as TrialSummary;
}

/** What a trial's status adds to its record. */
type TrialVerdict = { readonly status: 'passed' } | { readonly status: 'failed'; readonly failed: readonly string[] } | { readonly status: 'infra-error'; readonly message: string };

/** A judged trial before it is scrubbed: its record, checks and stats, its verdict, and the secrets its scenario declares. */
interface Judged {
  readonly common: TrialCommon;
  readonly verdict: TrialVerdict;
  readonly secrets: readonly string[] | undefined;
}

// Object.assign for the same reason as `common` in `judgeRecord`: the verdict's keys are new to the record.
const scrubbed = ({ common, verdict, secrets }: Judged): TrialResult => Object.assign({}, scrubSecrets(common, secrets), verdict) as TrialResult;

async function runJudged({ scenario, config: given, runSeed, trialIndex, refs, backend = memoryBackend, crash, lost, partial, watch }: TrialOptions): Promise<Judged> {
  const config = asExecutionConfig(given);
  const configName = config.name;
  const seed = trialSeed(runSeed, scenario.seedName ?? scenario.name, configName, trialIndex);
  // A program of its own runs on the wall clock, against the world served over real HTTP.
  if (scenario.agent.kind === 'command') {
    // Loaded on first use: the served path pulls in the MCP SDK and an HTTP server, which a run of in-process trials never needs.
    const { runServedTrial } = await import('./servedTrial.js');
    let served: Cassette | undefined;
    const record = await runServedTrial({ scenario, agent: scenario.agent, config: configName, seed, trialIndex, backend, ...(lost && { lost }), onRecording: (r) => (served = r) });
    return judgeRecord(scenario, record, runSeed, refs, liveOf(scenario, served, record.end));
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
  // Latency draws have a fork of their own: a scenario without `network` draws nothing, and one with it shifts no fault draw.
  const network = scenario.network && new NetworkLatency(scenario.network, rng.fork('network'));
  const wire = new Wire({ world, plan: scenario.faults, clock, rng: rng.fork('faults'), history, startMs, ...(network && { network }), ...heal });
  const transport = scenarioClient(scenario, wire, clock, rng.fork('client'));
  const ids = new IdSource();
  const callLimit = scenario.budget.maxToolCalls * 3 + 10;
  // The configuration's SDK layer sits on the scenario's client; the agent's layer sits on top, with the agent.
  // One client for the whole trial: every agent of a crowd shares its overload policies (none unless the configuration sets them).
  const policies = config.kind === 'runtime' ? clientPoliciesFor(config.retry, clock, rng.fork('client-policies')) : NO_CLIENT_POLICIES;
  const shared = policies === NO_CLIENT_POLICIES ? {} : { policies };
  const executorFor = async (t: Transport, c: Clock, runtimeRng: Rng, store: OperationStore | undefined, budget?: Executor['budget']): Promise<ToolExecutor> =>
    buildExecutor(config, { transport: t, clock: c, rng: runtimeRng, sdkRng: runtimeRng.fork('sdk-layer'), history, ids, startMs, ...(store && { store }), ...(budget && { budget }), ...shared });

  const agent = scenario.agent;
  const startAgent = (capped: ToolExecutor, agentClock: Clock, caller?: string, index?: number): Promise<LoopEnd> => {
    if (agent.kind === 'http') throw new TypeError('an http agent makes its own calls; it runs through runHttpAgentTrial');
    const executor = withAgentRepeats(capped, config.layers.agentRepeats);
    const task = index === undefined ? agent.task : withAgentIndex(agent.task, index);
    return agent.kind === 'scripted'
      ? runAgentLoop({
          // A behaviour mixture draws from its own fork (one per agent of a crowd): a single behaviour draws nothing, and no other draw moves.
          model: new ScriptedModel(index === undefined ? agent.plan : planForAgent(agent.plan, index), {
            behaviour: agent.behaviour,
            rng: rng.fork(caller === undefined ? 'behaviour' : `behaviour-${caller}`),
          }),
          executor,
          task,
          maxTurns: scenario.budget.maxTurns,
          history,
          clock: agentClock,
          format: scenario.format,
          ...(caller !== undefined && { caller }),
        })
      : runAgentFunction(agent.fn, { executor, task, history, clock: agentClock, ...(caller !== undefined && { caller }), ...(index !== undefined && { agent: index }) });
  };

  // Built before the clock runs: a library loads its module on first use, through real I/O the
  // virtual clock cannot wait for (it would call the trial hung). A crash plan builds its own
  // executors as its processes start; for a library this first one only loads the module.
  const first = agent.kind === 'http' || lost || scenario.agents > 1 || (crash && config.kind === 'runtime') ? undefined : await executorFor(transport, clock, rng.fork('runtime'), durable);
  const caps: CallCap[] = [];
  const crowd = scenario.agents > 1 && !crash && !lost && agent.kind !== 'http' ? await crowdOf(scenario, rng, (ctx) => buildExecutor(config, { ...ctx, ...shared }), { wire, clock, history, ids, startMs }) : undefined;
  // Every agent of a crowd: its own execution layer (and SDK client) on its own rng, the one wire, clock and history.
  const many = async (): Promise<LoopEnd> => {
    const ends = await Promise.all(
      crowd!.agents.map(async ({ offset, executor }, i) => {
        const caller = `agent-${i}`;
        if (offset > 0) await clock.sleep(offset);
        history.record({ type: 'agent_start', caller, agent: i, startMs: offset });
        const capped = new CallCap(executor, callLimit);
        caps.push(capped);
        return startAgent(capped, clock, caller, i);
      }),
    );
    return crowdEnd(ends);
  };
  const agentBody = crash
    ? () => runWithCrash(crash, { transport, ledger: world.ledger, clock, durable, executorFor, startAgent, rng, caps, callLimit })
    : crowd
      ? many
      : () => {
          if (first === undefined) throw new TypeError('no executor was built for this trial');
          const capped = new CallCap(first, callLimit);
          caps.push(capped);
          return startAgent(capped, clock);
        };
  const clockOptions = crowd
    ? { maxVirtualMs: scenario.budget.deadlineMs + crowd.lastStart, maxFiresPerInstant: Math.max(10_000, scenario.agents * 100) }
    : { maxVirtualMs: scenario.budget.deadlineMs };
  // The libraries read real timers and Math.random: both answer from the trial while it runs.
  const onTrialTime = <T>(body: () => Promise<T>): Promise<T> => {
    if (config.kind === 'runtime') return body();
    return withGlobalTimers(async () => {
      const timers = installVirtualTimers(clock, { mode: 'library', random: rng.fork('math-random') });
      try {
        return await body();
      } finally {
        timers.uninstall();
      }
    });
  };
  // An http agent is its own execution layer: it talks to the services over intercepted HTTP.
  let recording: Cassette | undefined;
  const runAgent = async (): Promise<ClockRun<LoopEnd>> =>
    agent.kind === 'http'
      ? await (await import('../agent/kinds/httpAgentRun.js')).runHttpAgentTrial({ scenario, run: agent.run, world, clock, history, rng, startMs, trial: { scenario: scenario.name, config: configName, trialIndex, seed }, onRecording: (r) => (recording = r) })
      : await onTrialTime(() => clock.run(agentBody, clockOptions));
  const ran = lost ?? trialEnd(await runAgent(), caps.some((c) => c.tripped), startMs);
  // R19: a process a command tool started must not outlive its trial; one that does is recorded, then killed.
  await world.processes.sweep();
  const { snapshot: worldSnapshot, failed: snapshotFailed } = await snapshotOf(world);
  // A service's own snapshot function that throws fails this trial, not the run.
  const end: TrialEnd = snapshotFailed === undefined ? ran : { kind: 'crashed', message: snapshotFailed };
  const message = end.kind === 'crashed' || end.kind === 'hung' || end.kind === 'infra_error' ? end.message : undefined;
  const trialEndEvent = { type: 'trial_end', status: end.kind, ...(message !== undefined && { message }) } as const;
  const survived = lost && partial !== undefined && partial.history.length > 0 ? partial : undefined;
  if (!survived) history.record(trialEndEvent);
  // A lost trial's history is what its worker reported before it went: its trial_end comes after its last event.
  const events = survived ? [...survived.history, { seq: survived.history.length, t: survived.history.at(-1)?.t ?? 0, ...trialEndEvent } as HistoryEvent] : history.events;

  const snapshot = survived?.snapshot ?? worldSnapshot;
  const record: TrialRecord = {
    scenario: scenario.name,
    config: configName,
    trialIndex,
    seed,
    history: events,
    snapshot,
    end,
  };
  return judgeRecord(scenario, record, runSeed, refs, liveOf(scenario, recording, end));
}

/** A live trial's recording, written beside the report, and the model its answers came from (synchronous: no trial waits a turn for it). */
function liveOf(scenario: Scenario, given: Cassette | undefined, end: TrialEnd): Pick<TrialCommon, 'recording' | 'model' | 'exchanges'> {
  const live = currentLiveRun();
  // An infra-error trial's recording says so: a replay of it must not judge the agent on answers the provider never gave.
  const recording = given?.trial && end.kind === 'infra_error' ? new Cassette(given.api, given.entries, { ...given.trial, infraError: end.message }) : given;
  const file = recording && live ? writeRecording(live.recordDir, sealSecrets(recording, scenario.secrets)) : undefined;
  const model = scenario.model?.name ?? (recording ? modelNamedIn(recording) : undefined);
  return { ...(file !== undefined && { recording: file }), ...(model !== undefined && { model }), ...(recording && recording.entries.length > 0 && { exchanges: modelExchanges(recording.entries) }) };
}

/** The model a live trial's requests named (the first that names one). */
function modelNamedIn(recording: Cassette): string | undefined {
  for (const e of recording.entries) {
    const body = e.request.body as { model?: unknown } | null;
    if (typeof body === 'object' && body !== null && typeof body.model === 'string') return body.model;
  }
  return undefined;
}

// Scenario names are slugs; configuration names are free text.
const fileSafe = (name: string): string => name.replace(/[^A-Za-z0-9_.-]+/g, '_');

/** Writes a live trial's recording (its secrets sealed) into the run's folder for them; returns its path from where the run was started. */
function writeRecording(dir: string, recording: Cassette): string {
  const t = recording.trial!;
  const file = join(dir, fileSafe(t.scenario), fileSafe(t.config), `trial-${t.trialIndex}.cassette.json`);
  // Written synchronously: fs/promises' writeFile settles with its file's close still pending, and
  // a trial on a worker that ends with it pending has left a handle open, and retires its worker
  // (each live trial then paid for starting a worker).
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(recording.toJSON(), null, 2)}\n`);
  return file;
}

/** Every checker over a finished trial's record, its stats, and the record scrubbed of secrets. */
export function judgeTrial(scenario: Scenario, record: TrialRecord, runSeed: number, refs: TrialOptions['refs'], live: Pick<TrialCommon, 'recording' | 'model' | 'exchanges'> = {}): TrialResult {
  return scrubbed(judgeRecord(scenario, record, runSeed, refs, live));
}

/** Every checker over a finished trial's record and its stats, not yet scrubbed. */
function judgeRecord(scenario: Scenario, record: TrialRecord, runSeed: number, refs: TrialOptions['refs'], live: Pick<TrialCommon, 'recording' | 'model' | 'exchanges'>): Judged {
  const { config: configName } = record;
  // The provider failed, not the agent: no checker judges what the agent did meanwhile.
  const infra = record.end.kind === 'infra_error' ? record.end.message : undefined;
  const expect = expectationsOf(scenario);
  const checks = infra === undefined ? runCheckers(record, expect, checkersOf(scenario)) : [];
  const recovered = measureRecovery(record, expect);
  // The checkers' index of this record: the stats reuse its traffic view, inputs and loads.
  const counted = trialStats(TrialIndex.of(record), scenario.goal.outcome);
  // Copied only to add the recovery (most scenarios expect none): a spread of its 13 keys cost a new object every trial.
  const stats: TrialStats = recovered ? { ...counted, recovery: { timeToRecoverMs: recovered.timeToRecoverMs, callsAfter: recovered.callsAfter.length } } : counted;
  const failed = checks.filter((c) => c.verdict.valid !== true).map((c) => c.name);
  // R13 at the source: the checkers judge the raw record; every report, replay and console line reads it scrubbed.
  // Object.assign, not `{ ...record, runSeed, … }`: V8 (Node 20) makes a new map for each key added after a leading spread, ≈ 1 µs a key, every trial.
  const common: TrialCommon = Object.assign({}, record, { runSeed, refs: refs ?? { scenario: scenario.name, config: configName }, checks, stats }, live);
  const verdict: TrialVerdict = infra !== undefined ? { status: 'infra-error', message: infra } : failed.length === 0 ? { status: 'passed' } : { status: 'failed', failed };
  return { common, verdict, secrets: scenario.secrets };
}

// A run's trials share their scenario's start time: parsed once, not once per trial.
let lastStart: { readonly text: string; readonly ms: number } | undefined;
function startMsOf(text: string): number {
  if (lastStart?.text !== text) lastStart = { text, ms: Date.parse(text) };
  return lastStart.ms;
}

/** The world's final snapshot; when a service's own `snapshot` throws, the ledger alone and why. */
async function snapshotOf(world: World): Promise<{ readonly snapshot: WorldSnapshot; readonly failed?: string }> {
  try {
    return { snapshot: await world.snapshotAsync() };
  } catch (error) {
    if (!(error instanceof ServiceCodeError)) throw error;
    const plain = JSON.parse(canonicalJson({ services: {}, ledger: world.ledger.effects })) as Omit<WorldSnapshot, 'hash'>;
    return { snapshot: { ...plain, hash: sha256(canonicalJson(plain)) }, failed: error.message };
  }
}

/** The tools' own SDK client the scenario declares (`client.sdkRetries`), retrying below the execution layer; the wire when it declares none. */
function scenarioClient(scenario: Scenario, wire: Transport, clock: Clock, rng: Rng): Transport {
  const client = scenario.client;
  return client ? new ClientRetries(wire, { maxRetries: client.sdkRetries, clock, rng, ...(client.tools && { tools: client.tools }) }) : wire;
}

/** Each agent of a crowd: when it starts (from the trial's own arrivals stream) and its own execution layer. */
async function crowdOf(
  scenario: Scenario,
  rng: Rng,
  create: (ctx: ExecutorContext) => Promise<ToolExecutor>,
  shared: { readonly wire: Transport; readonly clock: Clock; readonly history: History; readonly ids: IdSource; readonly startMs: number },
): Promise<{ readonly agents: readonly { readonly offset: number; readonly executor: ToolExecutor }[]; readonly lastStart: number }> {
  const offsets = arrivalOffsets(scenario.arrival, scenario.agents, rng.fork('arrivals'));
  const agents = await Promise.all(
    offsets.map(async (offset, i) => {
      const agentRng = rng.fork(`agent-${i}`);
      const transport = scenarioClient(scenario, shared.wire, shared.clock, agentRng.fork('client'));
      const runtimeRng = agentRng.fork('runtime');
      const executor = await create({ transport, clock: shared.clock, rng: runtimeRng, sdkRng: runtimeRng.fork('sdk-layer'), history: shared.history, ids: shared.ids, startMs: shared.startMs + offset });
      return { offset, executor };
    }),
  );
  return { agents, lastStart: offsets.reduce((a, b) => Math.max(a, b), 0) };
}

/**
 * A crowd's end as one: out of turns if any agent ran out, else ended with the first outcome
 * that is not `completed` (or `completed`). Each agent's own end is in the history (`agent_end`).
 */
function crowdEnd(ends: readonly LoopEnd[]): LoopEnd {
  const outOfTurns = ends.find((e) => e.kind === 'max_turns');
  if (outOfTurns) return outOfTurns;
  const ended = ends.filter((e): e is Extract<LoopEnd, { kind: 'ended' }> => e.kind === 'ended');
  const worst = ended.find((e) => e.outcome !== 'completed') ?? ended[0]!;
  return { ...worst, claims: ended.flatMap((e) => e.claims), turns: Math.max(...ended.map((e) => e.turns)) };
}

function trialEnd(run: ClockRun<LoopEnd>, capTripped: boolean, startMs: number): TrialEnd {
  const at = run.at - startMs;
  switch (run.kind) {
    case 'settled':
      return run.value.kind === 'ended'
        ? { kind: 'agent_ended', outcome: run.value.outcome }
        : { kind: 'budget_exceeded', limit: 'turns', at };
    case 'threw':
      if ((run.error as { code?: unknown } | undefined)?.code === INFRA_ERROR_CODE) return { kind: 'infra_error', message: (run.error as Error).message };
      return { kind: 'crashed', message: run.error instanceof Error ? `${run.error.name}: ${run.error.message}` : String(run.error) };
    case 'hung':
      return capTripped ? { kind: 'budget_exceeded', limit: 'tool_calls', at } : { kind: 'hung', at };
    case 'time_limit':
      return { kind: 'budget_exceeded', limit: 'time', at };
    case 'livelock':
      return { kind: 'hung', at };
  }
}
