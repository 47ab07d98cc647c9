import type { Clock, History } from '../../core/index.js';
import type { AgentStart } from '../agentKv.js';
import type { AgentKill } from './AgentKill.js';

/**
 * A function or http agent's starts under the scenario's `crash.agent`, in process: the first
 * runs until it ends or the trigger fires; then its run is abandoned (its `AgentStart` reports it
 * dead, so its pending calls are never answered, its timers never fire and whatever it still does
 * reaches neither the world nor the history) and `start` runs once more as restart 1, with the same
 * task. Whatever the abandoned run does later, even throwing, ends nothing: only the last start's
 * end is the agent's.
 */
export async function inProcessStarts<T>(
  kill: AgentKill,
  { clock, startMs, history }: { readonly clock: Clock; readonly startMs: number; readonly history: History },
  start: (life: AgentStart) => Promise<T>,
): Promise<T> {
  const first: AgentStart = { restart: 0, alive: () => !kill.fired };
  kill.arm(clock, startMs);
  const run = start(first);
  const killed = new Promise<'killed'>((resolve) =>
    kill.signal.addEventListener('abort', () => resolve('killed'), { once: true }),
  );
  let ended: { readonly end: T } | 'killed';
  try {
    ended = await Promise.race([run.then((end) => ({ end })), killed]);
  } finally {
    kill.disarm(clock);
  }
  if (ended !== 'killed') return ended.end;
  // The abandoned run may still settle, or reject: nobody is waiting for it any more.
  run.catch(() => undefined);
  history.record({ type: 'agent_restart', restart: 1 });
  return start({ restart: 1, alive: () => true });
}
