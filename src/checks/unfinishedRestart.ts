import type { TrialRecord } from './record.js';

/**
 * A scenario's `crash.agent` restarted the agent, and that restart never finished: it hung, was
 * killed at its timeout, or crashed on its own. Long-running work must resume after a fault, not
 * die again (issue 45): the `recovery` checker fails such a trial whether or not it expects a heal.
 */
export function unfinishedRestart(record: TrialRecord): { message: string; evidence: unknown } | undefined {
  const restart = record.history.find((e) => e.type === 'agent_restart');
  if (!restart || record.end.kind === 'agent_ended' || record.end.kind === 'infra_error') return undefined;
  const crash = record.history.find((e) => e.type === 'agent_crash');
  const why = 'message' in record.end && record.end.message !== undefined ? `: ${record.end.message}` : '';
  return {
    message:
      `the agent was restarted at t=${restart.t}ms after its crash (${crash?.type === 'agent_crash' ? crash.trigger : 'crash.agent'}), ` +
      `and that restart never finished (the trial ended ${record.end.kind}${why}); expected it to resume and end`,
    evidence: { restart: { seq: restart.seq, t: restart.t }, end: record.end },
  };
}
