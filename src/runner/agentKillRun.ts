import type { History, Transport, WireRequest, ToolContract } from '../core/index.js';
import type { AgentStart } from '../agent/agentKv.js';
import { never } from '../agent/agentKv.js';
import type { LoopEnd } from '../agent/loop.js';
import { AgentKill } from '../agent/kinds/AgentKill.js';
import { inProcessStarts } from '../agent/kinds/inProcessStarts.js';
import { Executor } from '../runtime/Executor.js';
import { InMemoryOperationStore } from '../runtime/idempotency/InMemoryOperationStore.js';
import type { ToolExecutor } from '../runtime/ToolExecutor.js';
import type { AgentCrashTrigger } from '../scenario/agentCrash.js';
import type { EffectLedger } from '../world/ledger.js';
import { CallCap } from './CallCap.js';
import { ProcessClock, type CrashRun } from './crash.js';

/**
 * A start's transport under `crash.agent`: each tool request's answer, its effect committed if it
 * had one, is shown to the kill first; the one it holds, and every answer after the start was
 * abandoned, never reaches the agent (the service did the work, the agent never heard: R25).
 */
class KilledTransport implements Transport {
  readonly tools: readonly ToolContract[];

  constructor(
    private readonly inner: Transport,
    private readonly kill: AgentKill,
  ) {
    this.tools = inner.tools;
  }

  async send(request: WireRequest, signal?: AbortSignal): Promise<unknown> {
    if (this.kill.fired) return never();
    // Status queries count as the served world counts them: every tool request, whoever in the agent sent it.
    const answer = this.inner.send(request, signal);
    const settled = await answer.then(
      (value: unknown) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (this.kill.fired || this.kill.holds({ request: request.request, tool: request.tool })) return never();
    if (settled.ok) return settled.value;
    throw settled.error;
  }
}

export interface AgentKillRun extends Omit<CrashRun, 'startAgent' | 'ledger'> {
  readonly trigger: AgentCrashTrigger;
  readonly ledger: EffectLedger;
  readonly history: History;
  readonly startMs: number;
  /** Starts the agent on an execution layer (the restart's agent comes from a fresh module instance). */
  readonly startAgent: (executor: ToolExecutor, clock: ProcessClock, start: AgentStart) => Promise<LoopEnd>;
}

/**
 * A function agent under the scenario's `crash.agent`, in process: the first start runs on a
 * clock and transport of its own that go dead when the trigger fires (its timers never fire, its
 * pending calls are never answered), and the agent starts once more on a fresh execution layer
 * (only the backend's durable store survives) with `ctx.restart`. The calls of both starts share
 * the trial's budget (R11).
 */
export async function runWithAgentKill(r: AgentKillRun): Promise<LoopEnd> {
  const kill = new AgentKill(r.trigger, r.ledger, r.history);
  let firstBudget: Executor['budget'] | undefined;
  return inProcessStarts(kill, r, async (life) => {
    const clock = new ProcessClock(r.clock);
    if (life.restart === 0) kill.signal.addEventListener('abort', () => clock.kill(), { once: true });
    const transport = life.restart === 0 ? new KilledTransport(r.transport, kill) : r.transport;
    const rng = r.rng.fork(life.restart === 0 ? 'runtime' : 'runtime:restart');
    const executor = await r.executorFor(transport, clock, rng, r.durable ?? new InMemoryOperationStore(), firstBudget);
    if (life.restart === 0 && executor instanceof Executor) firstBudget = executor.budget;
    if (life.restart > 0 && executor instanceof Executor && r.durable) await executor.resume({});
    const capped = new CallCap(executor, r.callLimit, clock);
    r.caps.push(capped);
    return r.startAgent(capped, clock, life);
  });
}
