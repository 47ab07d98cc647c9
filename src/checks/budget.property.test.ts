import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failAll, type EventOf, type HistoryEvent } from '../core/index.js';
import { agentProblems, budget, type AgentCount } from './budget.js';
import { expectations, TrialBuilder } from './testing.js';
import type { Expectations } from './record.js';

type Limits = Expectations['budget'];

/** The per-agent count as budget made it before it kept each call's count (a caller per call, then the caller's count): the oracle. */
function perAgentBefore(
  history: readonly HistoryEvent[],
  starts: readonly EventOf<'agent_start'>[],
  limits: Limits,
): { message: string; evidence: unknown }[] {
  const callerOfCall = new Map<string, string>();
  const mine = new Map<string, AgentCount>();
  for (const s of starts) mine.set(s.caller, { calls: 0, turns: 0, lastT: s.t, lastSeq: s.seq });
  for (const e of history) {
    if (e.type === 'tool_call' && e.caller !== undefined) callerOfCall.set(e.call, e.caller);
    const caller = e.caller ?? (e.call === undefined ? undefined : callerOfCall.get(e.call));
    const agent = caller === undefined ? undefined : mine.get(caller);
    if (!agent) continue;
    agent.lastT = Math.max(agent.lastT, e.t);
    agent.lastSeq = e.seq;
    if (e.type === 'tool_call' && ++agent.calls === limits.maxToolCalls + 1) agent.firstOverCall = e.call;
    if (e.type === 'model_turn' && ++agent.turns === limits.maxTurns + 1) agent.firstOverTurn = e.turn;
  }
  return agentProblems(starts, mine, limits);
}

// Callers that started, one that never did, none, and null (a hand-built record's: the checkers
// are exported, and a null caller must count as the caller-per-call form counted it); call ids
// that repeat across callers.
const caller = fc.constantFrom<string | null | undefined>('agent-0', 'agent-1', 'agent-9', null, undefined);
const call = fc.constantFrom<string | undefined>('call-1', 'call-2', 'call-3', undefined);
const step = fc.record({
  kind: fc.constantFrom('start', 'tool_call', 'model_turn', 'attempt', 'other'),
  caller,
  call,
  ms: fc.integer({ min: 0, max: 40 }),
});
const limits = { maxTurns: 1, maxToolCalls: 1, maxAttemptsPerCall: 1_000, deadlineMs: 60 };

describe('budget per agent', () => {
  it('counts each agent as it did when it looked up a caller per call, then its count', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 14 }), (steps) => {
        const b = new TrialBuilder();
        b.add({ type: 'agent_start', caller: 'agent-0', agent: 0, startMs: 0 });
        let turn = 0;
        for (const s of steps) {
          b.advance(s.ms);
          const who = s.caller === undefined ? {} : { caller: s.caller as string };
          if (s.kind === 'start')
            b.add({
              type: 'agent_start',
              caller: s.caller === undefined ? 'agent-1' : (s.caller as string),
              agent: 1,
              startMs: b.now,
            });
          else if (s.kind === 'tool_call')
            b.add({
              type: 'tool_call',
              call: s.call ?? 'call-1',
              tool: 'create_order',
              risk: 'write',
              honoursKeys: true,
              input: {},
              ...who,
            });
          else if (s.kind === 'model_turn') b.add({ type: 'model_turn', turn: ++turn, action: 'tool_calls', ...who });
          else if (s.kind === 'attempt')
            b.add({
              type: 'attempt',
              call: s.call ?? 'call-2',
              attempt: 1,
              tool: 'create_order',
              purpose: 'call',
              request: b.nextRequest(),
              ...who,
            });
          else
            b.add({
              type: 'retry_wait',
              ms: 1,
              reason: 'backoff',
              ...(s.call === undefined ? {} : { call: s.call }),
              ...who,
            } as never);
        }
        const record = b.build({ end: { kind: 'agent_ended', outcome: 'completed' } });
        const starts = record.history.filter((e): e is EventOf<'agent_start'> => e.type === 'agent_start');
        expect(budget.check(record, expectations({ budget: limits }))).toEqual(
          failAll(perAgentBefore(record.history, starts, limits)),
        );
      }),
      { numRuns: 3000 },
    );
  });
});
