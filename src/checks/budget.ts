import { eventsOf, failAll, type Verdict } from '../core/index.js';
import type { Checker } from './checker.js';
import { list, times } from './format.js';
import { TrialIndex } from './trialIndex.js';
import { WireView } from './WireView.js';

/** R6, R8, R11, R28: attempts, tool calls, turns and virtual time all stay within the scenario's budget. */
export const budget: Checker = {
  name: 'budget',
  rules: ['R6', 'R8', 'R11', 'R28'],
  description: 'Attempts per call, tool calls, model turns and virtual time stay within budget, and the agent neither hung nor was stopped by a limit.',
  check(record, expect): Verdict {
    const limits = expect.budget;
    const index = TrialIndex.of(record);
    const problems: { message: string; evidence: unknown }[] = [];

    for (const call of index.calls) {
      const attempts = index.callAttemptsOf(call.call);
      if (attempts.length <= limits.maxAttemptsPerCall) continue;
      const requests = attempts.map((a) => a.request);
      problems.push({
        message: `${call.call} (${call.tool}) made ${times(attempts.length, 'attempt')}, the limit is ${limits.maxAttemptsPerCall} (requests ${list(requests)})`,
        evidence: { call: call.call, tool: call.tool, attempts: attempts.length, limit: limits.maxAttemptsPerCall, requests, lastAt: attempts.at(-1)!.t },
      });
    }

    // Calls seen only on the wire (the user's own HTTP code); the executor's are counted above.
    for (const call of new WireView(record.history).toolCalls) {
      if (call.attempts.length <= limits.maxAttemptsPerCall) continue;
      const requests = call.attempts.map((a) => a.request);
      const first = call.attempts[0]!;
      problems.push({
        message: `${call.call} (${call.tool}, ${first.method} ${first.url}) was sent ${times(call.attempts.length)} over the wire, the limit is ${limits.maxAttemptsPerCall} attempts (requests ${list(requests)})`,
        evidence: { source: 'wire', call: call.call, tool: call.tool, attempts: call.attempts.length, limit: limits.maxAttemptsPerCall, requests, lastAt: call.attempts.at(-1)!.t },
      });
    }

    const calls = eventsOf(record.history, 'tool_call');
    if (calls.length > limits.maxToolCalls) {
      const over = calls.slice(limits.maxToolCalls);
      problems.push({
        message: `the agent made ${times(calls.length, 'tool call')}, the limit is ${limits.maxToolCalls} (over the limit: ${list(over.map((c) => `${c.call} ${c.tool}`))})`,
        evidence: { toolCalls: calls.length, limit: limits.maxToolCalls, over: over.map((c) => ({ call: c.call, tool: c.tool, seq: c.seq, t: c.t })) },
      });
    }

    const turns = eventsOf(record.history, 'model_turn');
    if (turns.length > limits.maxTurns) {
      const firstOver = turns[limits.maxTurns]!;
      problems.push({
        message: `the agent took ${times(turns.length, 'model turn')}, the limit is ${limits.maxTurns} (turn ${firstOver.turn} at t=${firstOver.t}ms was the first over)`,
        evidence: { turns: turns.length, limit: limits.maxTurns, firstOver: { turn: firstOver.turn, seq: firstOver.seq, t: firstOver.t } },
      });
    }

    const last = record.history.reduce<(typeof record.history)[number] | undefined>((m, e) => (m === undefined || e.t > m.t ? e : m), undefined);
    if (last && last.t > limits.deadlineMs) {
      problems.push({
        message: `the trial ran until t=${last.t}ms (event #${last.seq} ${last.type}), past its ${limits.deadlineMs}ms deadline`,
        evidence: { seq: last.seq, type: last.type, t: last.t, deadlineMs: limits.deadlineMs },
      });
    }

    const end = record.end;
    if (end.kind === 'budget_exceeded') {
      problems.push({ message: `the trial was stopped at t=${end.at}ms for exceeding its ${end.limit} limit`, evidence: { end } });
    } else if (end.kind === 'hung') {
      problems.push({ message: end.message !== undefined ? `the agent hung: ${end.message}` : `the agent hung at t=${end.at}ms with nothing left to run`, evidence: { end } });
    }

    return failAll(problems);
  },
};
