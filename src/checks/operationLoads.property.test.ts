import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addExecutorCall, operationLoads, type OperationLoad } from './amplification.js';
import { historyRecorder } from './testing.js';
import { STATUS_TOOL, TrialIndex } from './trialIndex.js';

/** `operationLoads` as it was before the index numbered operations: a map keyed by source, tool and canonical input text. The oracle. */
function loadsBefore(index: TrialIndex): OperationLoad[] {
  type Op = { source: OperationLoad['source']; tool: string; calls: string[]; attempts: number; deliveries: number };
  const byOperation = new Map<string, Op>();
  const operation = (source: Op['source'], id: string, tool: string): Op => {
    const key = `${source}\u0000${id}`;
    let op = byOperation.get(key);
    if (!op) byOperation.set(key, (op = { source, tool, calls: [], attempts: 0, deliveries: 0 }));
    return op;
  };
  for (const call of index.calls) {
    if (call.tool === STATUS_TOOL) continue;
    // Counted as the grouping counts: what changed is only how calls were grouped.
    addExecutorCall(
      operation('executor', `${call.tool}\u0000${index.inputText(call.call) ?? ''}`, call.tool),
      call.call,
      index,
    );
  }
  return [...byOperation.values()];
}

// Tools that repeat or not, the status tool, names with a NUL that could run into an input; inputs equal up to key order.
const tool = fc.constantFrom('create_order', 'charge_payment', STATUS_TOOL, 'a', 'a\u0000{"x":1}', 'a\u0000');
const input = fc.oneof(
  fc.constantFrom<unknown>(undefined, null, 1, 'x', { x: 1, y: 2 }, { y: 2, x: 1 }),
  fc.dictionary(fc.constantFrom('x', 'y'), fc.constantFrom(1, 2), { maxKeys: 2 }),
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('call' as const), tool, input, id: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant('attempt' as const),
    id: fc.integer({ min: 1, max: 4 }),
    status: fc.boolean(),
    copies: fc.integer({ min: 0, max: 2 }),
    answered: fc.boolean(),
  }),
);

describe('operationLoads', () => {
  it('groups calls, attempts and deliveries as it did when it keyed operations by their printed input', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const { events, add, call, attempt } = historyRecorder();
        for (const s of steps) {
          if (s.kind === 'call') call(s.id, s.tool, s.input);
          else {
            const request = attempt(s.id, s.status);
            for (let c = 0; c <= s.copies; c++) add({ type: 'delivery', request, tool: 't', copy: c });
            if (s.answered) add({ type: 'response', request, tool: 't', result: 'ok' });
          }
        }
        expect(operationLoads(new TrialIndex(events, []))).toEqual(loadsBefore(new TrialIndex(events, [])));
      }),
      { numRuns: 3000 },
    );
  });
});
