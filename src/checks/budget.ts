import { failAll, type EventOf, type HistoryEvent, type Verdict } from '../core/index.js';
import type { Expectations } from './record.js';
import type { Checker } from './checker.js';
import { list, times } from './format.js';
import { TrialIndex } from './trialIndex.js';

/** R6, R8, R11, R28: attempts, tool calls, turns and virtual time all stay within the scenario's budget. */
export const budget: Checker = {
  name: 'budget',
  rules: ['R6', 'R8', 'R11', 'R28'],
  description:
    'Attempts per call, tool calls, model turns and virtual time stay within budget, and the agent ' +
    'neither hung nor was stopped by a limit.',
  check(record, expect): Verdict {
    const limits = expect.budget;
    const index = TrialIndex.of(record);
    const problems: { message: string; evidence: unknown }[] = [];

    for (const call of index.calls) {
      const attempts = index.callAttemptsOf(call.call);
      if (attempts.length <= limits.maxAttemptsPerCall) continue;
      const requests = attempts.map((a) => a.request);
      problems.push({
        message:
          `${call.call} (${call.tool}) made ${times(attempts.length, 'attempt')}, the limit is ` +
          `${limits.maxAttemptsPerCall} (requests ${list(requests)})`,
        evidence: {
          call: call.call,
          tool: call.tool,
          attempts: attempts.length,
          limit: limits.maxAttemptsPerCall,
          requests,
          lastAt: attempts.at(-1)!.t,
        },
      });
    }

    // Calls seen only on the wire (the user's own HTTP code); the executor's are counted above.
    for (const call of index.wire.toolCalls) {
      if (call.attempts.length <= limits.maxAttemptsPerCall) continue;
      const requests = call.attempts.map((a) => a.request);
      const first = call.attempts[0]!;
      problems.push({
        message:
          `${call.call} (${call.tool}, ${first.method} ${first.url}) was sent ` +
          `${times(call.attempts.length)} over the wire, the limit is ${limits.maxAttemptsPerCall} attempts (requests ${list(requests)})`,
        evidence: {
          source: 'wire',
          call: call.call,
          tool: call.tool,
          attempts: call.attempts.length,
          limit: limits.maxAttemptsPerCall,
          requests,
          lastAt: call.attempts.at(-1)!.t,
        },
      });
    }

    const starts = index.eventsOf('agent_start');
    if (starts.length > 0) problems.push(...perAgent(record.history, starts, limits));
    else problems.push(...whole(index, limits));

    const end = record.end;
    if (end.kind === 'budget_exceeded') {
      problems.push({
        message: `the trial was stopped at t=${end.at}ms for exceeding its ${end.limit} limit`,
        evidence: { end },
      });
    } else if (end.kind === 'hung') {
      problems.push({
        message:
          end.message !== undefined
            ? `the agent hung: ${end.message}`
            : `the agent hung at t=${end.at}ms with nothing left to run`,
        evidence: { end },
      });
    }

    return failAll(problems);
  },
};

type Problem = { message: string; evidence: unknown };
type Limits = Expectations['budget'];

/** One agent's tool calls, turns and time against the budget. */
function whole(index: TrialIndex, limits: Limits): Problem[] {
  const history = index.events;
  const problems: Problem[] = [];
  const calls = index.eventsOf('tool_call');
  if (calls.length > limits.maxToolCalls) {
    const over = calls.slice(limits.maxToolCalls);
    problems.push({
      message:
        `the agent made ${times(calls.length, 'tool call')}, the limit is ${limits.maxToolCalls} (over ` +
        `the limit: ${list(over.map((c) => `${c.call} ${c.tool}`))})`,
      evidence: {
        toolCalls: calls.length,
        limit: limits.maxToolCalls,
        over: over.map((c) => ({ call: c.call, tool: c.tool, seq: c.seq, t: c.t })),
      },
    });
  }

  const turns = index.eventsOf('model_turn');
  if (turns.length > limits.maxTurns) {
    const firstOver = turns[limits.maxTurns]!;
    problems.push({
      message:
        `the agent took ${times(turns.length, 'model turn')}, the limit is ${limits.maxTurns} (turn ` +
        `${firstOver.turn} at t=${firstOver.t}ms was the first over)`,
      evidence: {
        turns: turns.length,
        limit: limits.maxTurns,
        firstOver: { turn: firstOver.turn, seq: firstOver.seq, t: firstOver.t },
      },
    });
  }

  const last = history.reduce<HistoryEvent | undefined>((m, e) => (m === undefined || e.t > m.t ? e : m), undefined);
  if (last && last.t > limits.deadlineMs) {
    problems.push({
      message: `the trial ran until t=${last.t}ms (event #${last.seq} ${last.type}), past its ${limits.deadlineMs}ms deadline`,
      evidence: { seq: last.seq, type: last.type, t: last.t, deadlineMs: limits.deadlineMs },
    });
  }
  return problems;
}

/** One agent's count over the trial: its calls and turns, its last event, the first call and turn over the budget. */
export interface AgentCount {
  calls: number;
  turns: number;
  lastT: number;
  lastSeq: number;
  firstOverCall?: string;
  firstOverTurn?: number;
}

/**
 * Many agents (`agent_start` events): each has the whole budget to itself, counted from its
 * own start over the events it caused (its turns, its calls and everything under them).
 */
function perAgent(
  history: readonly HistoryEvent[],
  starts: readonly EventOf<'agent_start'>[],
  limits: Limits,
): Problem[] {
  const mine = new Map<string, AgentCount>();
  for (const s of starts) mine.set(s.caller, { calls: 0, turns: 0, lastT: s.t, lastSeq: s.seq });
  // Each call's agent's count, kept when its tool_call names a caller: most events (attempts,
  // deliveries, responses) name only their call, and one lookup finds the count, not a caller and then its count.
  // `mine` does not change in this loop, so the count kept is the one the caller would find later.
  const agentOfCall = new Map<string, AgentCount | undefined>();
  // Each field read once into a local: the events come in a dozen shapes, and every read of one is a megamorphic load.
  for (const e of history) {
    const type = e.type;
    const caller = e.caller;
    let agent: AgentCount | undefined;
    if (caller !== undefined && caller !== null) {
      agent = mine.get(caller);
      if (type === 'tool_call') agentOfCall.set(e.call, agent);
    } else {
      // A caller of null (a hand-built record's; not a string) is a name like any other for a
      // tool_call, as the caller-per-call form read it: an agent_start may name it too. Any other
      // event without a caller goes by its call.
      if (type === 'tool_call' && caller === null) agentOfCall.set(e.call, mine.get(caller as unknown as string));
      const call = e.call;
      agent = call === undefined ? undefined : agentOfCall.get(call);
    }
    if (agent === undefined) continue;
    agent.lastT = Math.max(agent.lastT, e.t);
    agent.lastSeq = e.seq;
    if (type === 'tool_call') {
      if (++agent.calls === limits.maxToolCalls + 1) agent.firstOverCall = e.call;
    } else if (type === 'model_turn' && ++agent.turns === limits.maxTurns + 1) agent.firstOverTurn = e.turn;
  }
  return agentProblems(starts, mine, limits);
}

/** What each agent's count says against its budget (shared with the property test's older count, which counted the same way). */
export function agentProblems(
  starts: readonly EventOf<'agent_start'>[],
  mine: ReadonlyMap<string, AgentCount>,
  limits: Limits,
): Problem[] {
  const problems: Problem[] = [];
  for (const s of starts) {
    const a = mine.get(s.caller)!;
    if (a.calls > limits.maxToolCalls) {
      problems.push({
        message:
          `${s.caller} made ${times(a.calls, 'tool call')}, the limit is ${limits.maxToolCalls} per ` +
          `agent (${a.firstOverCall} was the first over)`,
        evidence: { caller: s.caller, toolCalls: a.calls, limit: limits.maxToolCalls, firstOver: a.firstOverCall },
      });
    }
    if (a.turns > limits.maxTurns) {
      problems.push({
        message:
          `${s.caller} took ${times(a.turns, 'model turn')}, the limit is ${limits.maxTurns} per ` +
          `agent (turn ${a.firstOverTurn} was the first over)`,
        evidence: { caller: s.caller, turns: a.turns, limit: limits.maxTurns, firstOverTurn: a.firstOverTurn },
      });
    }
    const took = a.lastT - s.startMs;
    if (took > limits.deadlineMs) {
      problems.push({
        message:
          `${s.caller} ran until t=${a.lastT}ms (event #${a.lastSeq}), ${took}ms after its ` +
          `start at t=${s.startMs}ms, past its ${limits.deadlineMs}ms deadline`,
        evidence: {
          caller: s.caller,
          startMs: s.startMs,
          lastT: a.lastT,
          seq: a.lastSeq,
          deadlineMs: limits.deadlineMs,
        },
      });
    }
  }
  return problems;
}
