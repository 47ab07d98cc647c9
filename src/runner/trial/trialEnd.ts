import type { ClockRun } from '../../core/index.js';
import { INFRA_ERROR_CODE } from '../../core/infraError.js';
import type { LoopEnd } from '../../agent/loop.js';
import type { TrialEnd } from '../../checks/record.js';

/**
 * A crowd's end as one: out of turns if any agent ran out, else ended with the first outcome
 * that is not `completed` (or `completed`). Each agent's own end is in the history (`agent_end`).
 */
export function crowdEnd(ends: readonly LoopEnd[]): LoopEnd {
  const outOfTurns = ends.find((e) => e.kind === 'max_turns');
  if (outOfTurns) return outOfTurns;
  const ended = ends.filter((e): e is Extract<LoopEnd, { kind: 'ended' }> => e.kind === 'ended');
  const worst = ended.find((e) => e.outcome !== 'completed') ?? ended[0]!;
  return { ...worst, claims: ended.flatMap((e) => e.claims), turns: Math.max(...ended.map((e) => e.turns)) };
}

/** How the agent's run on the clock ended, as the trial's end (a call cap that tripped turns a hang into a budget exceeded). */
export function trialEnd(run: ClockRun<LoopEnd>, capTripped: boolean, startMs: number): TrialEnd {
  const at = run.at - startMs;
  switch (run.kind) {
    case 'settled':
      return run.value.kind === 'ended'
        ? { kind: 'agent_ended', outcome: run.value.outcome }
        : { kind: 'budget_exceeded', limit: 'turns', at };
    case 'threw':
      if ((run.error as { code?: unknown } | undefined)?.code === INFRA_ERROR_CODE)
        return { kind: 'infra_error', message: (run.error as Error).message };
      return {
        kind: 'crashed',
        message: run.error instanceof Error ? `${run.error.name}: ${run.error.message}` : String(run.error),
      };
    case 'hung':
      return capTripped ? { kind: 'budget_exceeded', limit: 'tool_calls', at } : { kind: 'hung', at };
    case 'time_limit':
      return { kind: 'budget_exceeded', limit: 'time', at };
    case 'livelock':
      return { kind: 'hung', at };
  }
}
