import { IdSource, type Clock, type History, type Rng, type Transport, type VirtualClock } from '../../core/index.js';
import type { World } from '../../world/World.js';
import { Wire } from '../../faults/Wire.js';
import type { ExecutionConfig } from '../../runtime/executionConfig.js';
import type { ToolExecutor } from '../../runtime/ToolExecutor.js';
import {
  clientPoliciesFor,
  NO_CLIENT_POLICIES,
  type ClientPolicies,
} from '../../runtime/retry/client/ClientPolicies.js';
import { runAgentLoop, type LoopEnd } from '../../agent/loop.js';
import { runAgentFunction } from '../../agent/agentFunction.js';
import type { AgentStart } from '../../agent/agentKv.js';
import { planForAgent, withAgentIndex } from '../../agent/agentIndex.js';
import { withAgentRepeats } from '../../agent/kinds/AgentRepeats.js';
import { ScriptedModel } from '../../model/ScriptedModel.js';
import type { Scenario } from '../../scenario/scenario.js';
import { scenarioFaults } from '../../scenario/scenarioFaults.js';
import type { CrashRun } from '../crash.js';
import { executorFor as buildExecutor } from '../executorFor.js';
import { scenarioClient } from './scenarioClient.js';

/** One trial in process before its agents start: its scenario and execution layer, and the fresh rng, clock, history and world. */
export interface TrialStage {
  readonly scenario: Scenario;
  readonly config: ExecutionConfig;
  readonly rng: Rng;
  readonly clock: VirtualClock;
  readonly history: History;
  readonly world: World;
  readonly startMs: number;
}

/** What the trial's agents run on: the one wire and client, and how an execution layer and an agent are started on them. */
export interface TrialAgents {
  readonly wire: Wire;
  readonly transport: Transport;
  readonly ids: IdSource;
  readonly callLimit: number;
  /** The client's overload policies every agent of the trial shares (none unless the configuration sets them). */
  readonly shared: { readonly policies?: ClientPolicies };
  /** The configuration's execution layer on a transport, clock and rng of the caller's (a crash's second process has its own). */
  readonly executorFor: CrashRun['executorFor'];
  readonly startAgent: (
    capped: ToolExecutor,
    agentClock: Clock,
    caller?: string,
    index?: number,
    start?: AgentStart,
  ) => Promise<LoopEnd>;
}

/** The wire under the scenario's fault plan and network, the client on it, and the agent's starters. */
export function trialAgents(stage: TrialStage): TrialAgents {
  const { scenario, config, rng, clock, history, world, startMs } = stage;
  const wire = new Wire({ world, clock, history, startMs, ...scenarioFaults(scenario, rng) });
  const transport = scenarioClient(scenario, wire, clock, rng.fork('client'));
  const ids = new IdSource();
  const callLimit = scenario.budget.maxToolCalls * 3 + 10;
  // The configuration's SDK layer sits on the scenario's client; the agent's layer sits on top, with the agent.
  // One client for the whole trial: every agent of a crowd shares its overload policies (none unless the configuration sets them).
  const policies =
    config.kind === 'runtime'
      ? clientPoliciesFor(config.retry, clock, rng.fork('client-policies'))
      : NO_CLIENT_POLICIES;
  const shared = policies === NO_CLIENT_POLICIES ? {} : { policies };
  const executorFor: TrialAgents['executorFor'] = async (t, c, runtimeRng, store, budget) =>
    buildExecutor(config, {
      transport: t,
      clock: c,
      rng: runtimeRng,
      sdkRng: runtimeRng.fork('sdk-layer'),
      history,
      ids,
      startMs,
      ...(store && { store }),
      ...(budget && { budget }),
      ...shared,
    });
  return { wire, transport, ids, callLimit, shared, executorFor, startAgent: agentStarter(stage) };
}

/** Starts the scenario's agent (one of a crowd when `index` is given) on an execution layer already capped. */
export function agentStarter({ scenario, config, rng, history, world }: TrialStage): TrialAgents['startAgent'] {
  const agent = scenario.agent;
  return (capped, agentClock, caller, index, start) => {
    if (agent.kind === 'http')
      throw new TypeError('an http agent makes its own calls; it runs through runHttpAgentTrial');
    if (agent.kind === 'command')
      throw new TypeError('a command agent makes its own calls; it runs through runServedTrial');
    const executor = withAgentRepeats(capped, config.layers.agentRepeats);
    const task = index === undefined ? agent.task : withAgentIndex(agent.task, index);
    return agent.kind === 'scripted'
      ? runAgentLoop({
          // A behaviour mixture draws from its own fork (one per agent of a crowd): a single behaviour draws nothing,
          // and no other draw moves.
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
      : runAgentFunction(agent.fn, {
          executor,
          task,
          history,
          clock: agentClock,
          kv: world.kv,
          ...(caller !== undefined && { caller }),
          ...(index !== undefined && { agent: index }),
          ...(start && { start }),
        });
  };
}
