import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type HistoryEvent } from '../core/index.js';
import { historyRecorder } from '../checks/testing.js';
import { TrialIndex } from '../checks/trialIndex.js';
import { crowdStats, trialStats } from './trialStats.js';

/** The count as trialStats made it before it skipped printing inputs: every call's tool and canonical input, distinct. */
const referenceOperations = (events: readonly HistoryEvent[]): number =>
  new Set(
    events.flatMap((e) =>
      e.type === 'tool_call' && e.tool !== 'query_operation_status' ? [`${e.tool}\u0000${canonicalJson(e.input)}`] : [],
    ),
  ).size;

// Tools that repeat or not, a status query, and names with a NUL that could run into an input.
const tool = fc.constantFrom(
  'create_order',
  'charge_payment',
  'query_operation_status',
  'a',
  'a\u0000{"x":1}',
  'a\u0000',
);
const input = fc.oneof(
  fc.constantFrom<unknown>(undefined, null, 1, 'x'),
  fc.dictionary(fc.constantFrom('x', 'y'), fc.constantFrom(1, 2), { maxKeys: 2 }),
);
// Call ids may repeat (the index keeps the last event of an id; stats count every event).
const calls = fc.array(fc.record({ tool, input, id: fc.integer({ min: 1, max: 4 }) }), { maxLength: 6 });

describe('trialStats: operations', () => {
  it('counts distinct (tool, canonical input) among the calls, as it did when it printed every input', () => {
    fc.assert(
      fc.property(calls, (list) => {
        const events = list.map(
          ({ tool: name, input: given, id }, seq): HistoryEvent =>
            ({
              seq,
              t: 0,
              type: 'tool_call',
              call: `call-${id}`,
              tool: name,
              risk: 'write',
              honoursKeys: true,
              input: given,
            }) as HistoryEvent,
        );
        const stats = trialStats(new TrialIndex(events, []));
        expect(stats.operations).toBe(referenceOperations(events));
        expect(stats.calls).toBe(
          events.filter((e) => e.type === 'tool_call' && e.tool !== 'query_operation_status').length,
        );
      }),
      { numRuns: 3000 },
    );
  });
});

/** The most sends of one operation as crowdStats counted them before the index numbered operations: keyed by tool and printed input. */
function maxSendsBefore(index: TrialIndex): number {
  const callOfRequest = new Map<string, string>();
  const operationOfCall = new Map<string, string>();
  const sendsOfOperation = new Map<string, number>();
  for (const e of index.events) {
    if (e.type === 'tool_call' && e.tool !== 'query_operation_status') {
      const text = (index.call(e.call) === e ? index.inputText(e.call) : undefined) ?? canonicalJson(e.input);
      operationOfCall.set(e.call, `${e.tool}\u0000${text}`);
    } else if (e.type === 'attempt' && e.purpose === 'call') callOfRequest.set(e.request, e.call);
    else if (e.type === 'response') {
      const call = callOfRequest.get(e.request);
      const op = call === undefined ? undefined : operationOfCall.get(call);
      if (op !== undefined) sendsOfOperation.set(op, (sendsOfOperation.get(op) ?? 0) + 1);
    }
  }
  return [...sendsOfOperation.values()].reduce((a, b) => Math.max(a, b), 0);
}

describe('crowdStats: sends per operation', () => {
  it('finds the most sends of one (tool, canonical input) as it did when it keyed them by the printed input', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('call' as const), tool, input, id: fc.integer({ min: 1, max: 4 }) }),
      fc.record({
        kind: fc.constant('send' as const),
        id: fc.integer({ min: 1, max: 4 }),
        status: fc.boolean(),
        answers: fc.integer({ min: 0, max: 2 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const { events, add, call, attempt } = historyRecorder();
        add({ type: 'agent_start', caller: 'agent-0', agent: 0, startMs: 0 });
        for (const s of steps) {
          if (s.kind === 'call') call(s.id, s.tool, s.input);
          else {
            const request = attempt(s.id, s.status);
            for (let n = 0; n < s.answers; n++) add({ type: 'response', request, tool: 't', result: 'ok' });
          }
        }
        const index = new TrialIndex(events, []);
        // The stats first (they number operations as they meet them), then the oracle on a fresh index.
        expect(crowdStats(index, ['completed']).maxSendsPerOperation).toBe(maxSendsBefore(new TrialIndex(events, [])));
      }),
      { numRuns: 3000 },
    );
  });
});
