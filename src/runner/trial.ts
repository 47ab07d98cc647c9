import { History, IdSource, Rng, VirtualClock, trialSeed, type ClockRun } from '../core/index.js';
import { ClientRetries } from '../faults/ClientRetries.js';
import { Wire } from '../faults/Wire.js';
import { Executor } from '../runtime/Executor.js';
import type { RetryConfig } from '../runtime/config.js';
import { runAgentLoop, type LoopEnd } from '../agent/loop.js';
import { runAgentFunction } from '../agent/agentFunction.js';
import { ScriptedModel } from '../agent/ScriptedModel.js';
import { runCheckers, BUILTIN_CHECKERS, type CheckResult } from '../checks/index.js';

export type { CheckResult };
import type { Checker } from '../checks/checker.js';
import type { Expectations, TrialEnd, TrialRecord } from '../checks/record.js';
import { BUILTIN_SERVICES, createWorld } from '../world/createWorld.js';
import { CallCap } from './CallCap.js';
import type { Scenario } from './scenario.js';
import { trialStats, type TrialStats } from './trialStats.js';

interface TrialCommon extends TrialRecord {
  readonly runSeed: number;
  /** How a command line names this trial's scenario and configuration (a built-in name or a file path). */
  readonly refs: { readonly scenario: string; readonly config: string };
  readonly checks: readonly CheckResult[];
  readonly stats: TrialStats;
}

/** One trial, judged. `failed` names the checkers that did not pass. */
export type TrialResult =
  | (TrialCommon & { readonly status: 'passed' })
  | (TrialCommon & { readonly status: 'failed'; readonly failed: readonly string[] });
export type TrialStatus = TrialResult['status'];

export interface TrialOptions {
  readonly scenario: Scenario;
  readonly config: RetryConfig;
  readonly runSeed: number;
  readonly trialIndex: number;
  /** Command-line names for the replay command (default: the scenario's and configuration's names). */
  readonly refs?: { readonly scenario: string; readonly config: string };
}

/** What each scenario's checkers are told to expect. */
export function expectationsOf(scenario: Scenario): Expectations {
  return { goal: scenario.goal, budget: scenario.budget, secrets: scenario.secrets };
}

export function checkersOf(scenario: Scenario): readonly Checker[] {
  // The scenario schema only admits built-in names, so the filter drops nothing.
  return scenario.checks ? BUILTIN_CHECKERS.filter((c) => scenario.checks?.includes(c.name)) : BUILTIN_CHECKERS;
}

/**
 * One trial: a fresh world, clock, rng and history; the agent runs on virtual time
 * until it ends, crashes, hangs or runs out of budget; then every checker judges it.
 * Nothing the agent does can end the run: its failures become this trial's verdict.
 */
export async function runTrial({ scenario, config, runSeed, trialIndex, refs }: TrialOptions): Promise<TrialResult> {
  const seed = trialSeed(runSeed, scenario.name, config.name, trialIndex);
  const rng = new Rng(seed);
  const startMs = Date.parse(scenario.startTime);
  const clock = new VirtualClock(startMs);
  const history = new History(clock);
  history.record({ type: 'trial_start', scenario: scenario.name, config: config.name, trialIndex, seed, startMs });

  const world = createWorld(clock, scenario.world, scenario.services ?? BUILTIN_SERVICES);
  const wire = new Wire({ world, plan: scenario.faults, clock, rng: rng.fork('faults'), history, startMs });
  const client = scenario.client;
  const transport = client
    ? new ClientRetries(wire, { maxRetries: client.sdkRetries, clock, rng: rng.fork('client'), ...(client.tools && { tools: client.tools }) })
    : wire;
  const executor = new Executor({ transport, config, clock, rng: rng.fork('runtime'), history, ids: new IdSource(), startMs });
  const capped = new CallCap(executor, scenario.budget.maxToolCalls * 3 + 10);

  const agent = scenario.agent;
  const run = await clock.run(
    (): Promise<LoopEnd> =>
      agent.kind === 'scripted'
        ? runAgentLoop({
            model: new ScriptedModel(agent.plan, { behaviour: agent.behaviour }),
            executor: capped,
            task: agent.task,
            maxTurns: scenario.budget.maxTurns,
            history,
            clock,
            format: scenario.format,
          })
        : runAgentFunction(agent.fn, { executor: capped, task: agent.task, history, clock }),
    { maxVirtualMs: scenario.budget.deadlineMs },
  );
  const end = trialEnd(run, capped.tripped, startMs);
  history.record({ type: 'trial_end', status: end.kind, ...(end.kind === 'crashed' ? { message: end.message } : {}) });

  const snapshot = world.snapshot();
  const record: TrialRecord = {
    scenario: scenario.name,
    config: config.name,
    trialIndex,
    seed,
    history: history.events,
    snapshot,
    end,
  };
  const checks = runCheckers(record, expectationsOf(scenario), checkersOf(scenario));
  const stats = trialStats(record.history, snapshot.ledger);
  const failed = checks.filter((c) => c.verdict.valid !== true).map((c) => c.name);
  const common: TrialCommon = { ...record, runSeed, refs: refs ?? { scenario: scenario.name, config: config.name }, checks, stats };
  return failed.length === 0 ? { ...common, status: 'passed' } : { ...common, status: 'failed', failed };
}

function trialEnd(run: ClockRun<LoopEnd>, capTripped: boolean, startMs: number): TrialEnd {
  const at = run.at - startMs;
  switch (run.kind) {
    case 'settled':
      return run.value.kind === 'ended'
        ? { kind: 'agent_ended', outcome: run.value.outcome }
        : { kind: 'budget_exceeded', limit: 'turns', at };
    case 'threw':
      return { kind: 'crashed', message: run.error instanceof Error ? `${run.error.name}: ${run.error.message}` : String(run.error) };
    case 'hung':
      return capTripped ? { kind: 'budget_exceeded', limit: 'tool_calls', at } : { kind: 'hung', at };
    case 'time_limit':
      return { kind: 'budget_exceeded', limit: 'time', at };
    case 'livelock':
      return { kind: 'hung', at };
  }
}
