import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type HistoryEvent } from '../core/index.js';
import { TrialIndex } from '../checks/trialIndex.js';
import { trialStats } from './trialStats.js';

/** The count as trialStats made it before it skipped printing inputs: every call's tool and canonical input, distinct. */
const referenceOperations = (events: readonly HistoryEvent[]): number =>
  new Set(events.flatMap((e) => (e.type === 'tool_call' && e.tool !== 'query_operation_status' ? [`${e.tool}\u0000${canonicalJson(e.input)}`] : []))).size;

// Tools that repeat or not, a status query, and names with a NUL that could run into an input.
const tool = fc.constantFrom('create_order', 'charge_payment', 'query_operation_status', 'a', 'a\u0000{"x":1}', 'a\u0000');
const input = fc.oneof(fc.constantFrom<unknown>(undefined, null, 1, 'x'), fc.dictionary(fc.constantFrom('x', 'y'), fc.constantFrom(1, 2), { maxKeys: 2 }));
// Call ids may repeat (the index keeps the last event of an id; stats count every event).
const calls = fc.array(fc.record({ tool, input, id: fc.integer({ min: 1, max: 4 }) }), { maxLength: 6 });

describe('trialStats: operations', () => {
  it('counts distinct (tool, canonical input) among the calls, as it did when it printed every input', () => {
    fc.assert(
      fc.property(calls, (list) => {
        const events = list.map(
          ({ tool: name, input: given, id }, seq): HistoryEvent => ({ seq, t: 0, type: 'tool_call', call: `call-${id}`, tool: name, risk: 'write', honoursKeys: true, input: given }) as HistoryEvent,
        );
        const stats = trialStats(new TrialIndex(events, []));
        expect(stats.operations).toBe(referenceOperations(events));
        expect(stats.calls).toBe(events.filter((e) => e.type === 'tool_call' && e.tool !== 'query_operation_status').length);
      }),
      { numRuns: 3000 },
    );
  });
});
