import type { Rng, VirtualClock } from '../../core/index.js';
import { installVirtualTimers } from '../../core/clock/globalTimers.js';
import type { LoopEnd } from '../../agent/loop.js';
import type { OperationStore } from '../../runtime/idempotency/OperationStore.js';
import type { ExecutionConfig } from '../../runtime/executionConfig.js';
import type { ToolExecutor } from '../../runtime/ToolExecutor.js';
import type { TrialEnd } from '../../checks/record.js';
import { CallCap } from '../CallCap.js';
import { executorFor as buildExecutor } from '../executorFor.js';
import { runWithCrash, type CrashPlan } from '../crash.js';
import { crowdOf, type Crowd } from './crowdOf.js';
import { withGlobalTimers } from '../globalTimersLock.js';
import { crowdEnd } from './trialEnd.js';
import { agentStarter, type TrialAgents, type TrialStage } from './trialAgents.js';
import { runWithAgentKill } from '../agentKillRun.js';
import { freshAgent, type RestartOf } from '../../scenario/freshAgent.js';

/** How the agents of an in-process trial start: one process that crashes, a crowd, or one agent on its first executor. */
export interface AgentPlan {
  readonly crash: CrashPlan | undefined;
  readonly crowd: Crowd | undefined;
  readonly first: ToolExecutor | undefined;
  readonly durable: OperationStore | undefined;
  /** Every call cap the trial's agents run under, filled as they start: one that tripped turns a hang into a budget exceeded. */
  readonly caps: CallCap[];
  /** Under the scenario's `crash.agent`: how the function agent starts again, from a fresh instance of its module. */
  readonly restart: TrialAgents['startAgent'] | undefined;
}

/**
 * The plan for the trial's agents. Its first executor is built before the clock runs: a library
 * loads its module on first use, through real I/O the virtual clock cannot wait for (it would call
 * the trial hung). A crash plan builds its own executors as its processes start; for a library
 * this first one only loads the module. A crowd builds one per agent.
 */
export async function agentPlanOf(
  stage: TrialStage,
  agents: TrialAgents,
  {
    crash,
    lost,
    durable,
    trial,
  }: Pick<AgentPlan, 'crash' | 'durable'> & { readonly lost: TrialEnd | undefined; readonly trial: RestartOf },
): Promise<AgentPlan> {
  const { scenario, config, rng, clock, history, startMs } = stage;
  const agent = scenario.agent;
  const first =
    agent.kind === 'http' || lost || scenario.agents > 1 || (crash && config.kind === 'runtime')
      ? undefined
      : await agents.executorFor(agents.transport, clock, rng.fork('runtime'), durable);
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
  return { crash, crowd, first, durable, caps: [], restart: await restartStarter(stage, crowd, lost, trial) };
}

/**
 * How a function agent under `crash.agent` starts again: the module it came from imported afresh
 * now, before the clock runs (an import is real I/O the virtual clock cannot wait for).
 */
async function restartStarter(
  stage: TrialStage,
  crowd: Crowd | undefined,
  lost: TrialEnd | undefined,
  trial: RestartOf,
): Promise<TrialAgents['startAgent'] | undefined> {
  const { scenario } = stage;
  const agent = scenario.agent;
  if (!scenario.crash?.agent || agent.kind !== 'function' || crowd || lost) return undefined;
  const fn = (await freshAgent(agent.fn, trial)) ?? agent.fn;
  return agentStarter({ ...stage, scenario: { ...scenario, agent: { ...agent, fn } } });
}

/** What the trial's clock runs, and its limits: a crowd's deadline counts from its last agent's start. */
export function agentBody(
  stage: TrialStage,
  agents: TrialAgents,
  plan: AgentPlan,
): { readonly body: () => Promise<LoopEnd>; readonly clockOptions: Parameters<VirtualClock['run']>[1] } {
  const { scenario, world, clock, history, rng } = stage;
  const { transport, executorFor, startAgent, callLimit } = agents;
  const { crash, crowd, first, durable, caps, restart } = plan;
  // Every agent of a crowd: its own execution layer (and SDK client) on its own rng, the one wire, clock and history.
  const many = async (): Promise<LoopEnd> => {
    const ends = await Promise.all(
      crowd!.agents.map(async ({ offset, executor }, i) => {
        const caller = `agent-${i}`;
        if (offset > 0) await clock.sleep(offset);
        history.record({ type: 'agent_start', caller, agent: i, startMs: offset });
        const capped = new CallCap(executor, callLimit, clock, i);
        caps.push(capped);
        return startAgent(capped, clock, caller, i);
      }),
    );
    return crowdEnd(ends);
  };
  const trigger = scenario.crash?.agent;
  const agentBody =
    restart && trigger
      ? () =>
          runWithAgentKill({
            trigger,
            transport,
            ledger: world.ledger,
            history,
            startMs: stage.startMs,
            clock,
            durable,
            executorFor,
            rng,
            caps,
            callLimit,
            startAgent: (executor, agentClock, life) =>
              (life.restart === 0 ? startAgent : restart)(executor, agentClock, undefined, undefined, life),
          })
      : crash
        ? () =>
            runWithCrash(crash, {
              transport,
              ledger: world.ledger,
              clock,
              durable,
              executorFor,
              startAgent,
              rng,
              caps,
              callLimit,
            })
        : crowd
          ? many
          : () => {
              if (first === undefined) throw new TypeError('no executor was built for this trial');
              const capped = new CallCap(first, callLimit, clock);
              caps.push(capped);
              return startAgent(capped, clock);
            };
  const clockOptions = crowd
    ? {
        maxVirtualMs: scenario.budget.deadlineMs + crowd.lastStart,
        maxFiresPerInstant: Math.max(10_000, scenario.agents * 100),
      }
    : { maxVirtualMs: scenario.budget.deadlineMs };
  return { body: agentBody, clockOptions };
}

/** Runs `body` on the trial's time: the libraries read real timers and Math.random, and both answer from the trial while it runs. */
export function onTrialTime<T>(
  config: ExecutionConfig,
  clock: VirtualClock,
  rng: Rng,
  body: () => Promise<T>,
): Promise<T> {
  if (config.kind === 'runtime') return body();
  return withGlobalTimers(async () => {
    const timers = installVirtualTimers(clock, { mode: 'library', random: rng.fork('math-random') });
    try {
      return await body();
    } finally {
      timers.uninstall();
    }
  });
}
