import { failAll, pass, type HistoryEvent, type Verdict } from '../core/index.js';
import type { Checker } from './checker.js';
import { list } from './format.js';
import { STATUS_TOOL, TrialIndex } from './trialIndex.js';

/**
 * The load each request put on the service side: every send that got any answer or none
 * (a 503 refused at the door is load too), plus every extra copy of a duplicated delivery.
 */
export function requestLoad(history: readonly HistoryEvent[]): Map<string, number> {
  const load = new Map<string, number>();
  for (const e of history) {
    if (e.type === 'response' || (e.type === 'delivery' && e.copy > 0)) load.set(e.request, (load.get(e.request) ?? 0) + 1);
  }
  return load;
}

/** One logical operation: every call of one tool with one input, and the load it put on the service. */
export interface OperationLoad {
  readonly tool: string;
  readonly calls: readonly string[];
  readonly attempts: number;
  readonly deliveries: number;
}

/**
 * Groups the agent's calls into logical operations: the agent re-calling a tool with the
 * same input is a retry at the agent's layer, not new work (R10).
 */
export function operationLoads(index: TrialIndex): OperationLoad[] {
  const load = requestLoad(index.events);
  const byOperation = new Map<string, { tool: string; calls: string[]; attempts: number; deliveries: number }>();
  for (const call of index.calls) {
    if (call.tool === STATUS_TOOL) continue;
    const id = `${call.tool}\u0000${index.inputText(call.call) ?? ''}`;
    let op = byOperation.get(id);
    if (!op) byOperation.set(id, (op = { tool: call.tool, calls: [], attempts: 0, deliveries: 0 }));
    op.calls.push(call.call);
    for (const a of index.callAttemptsOf(call.call)) {
      op.attempts++;
      op.deliveries += load.get(a.request) ?? 0;
    }
  }
  return [...byOperation.values()];
}

/** R10: retry layers multiply; the deliveries one logical operation causes stay within the scenario's limit. */
export const amplification: Checker = {
  name: 'amplification',
  rules: ['R10'],
  description: 'Deliveries to a service per logical operation, across the SDK, the execution layer and the agent, stay within the limit.',
  check(record, expect): Verdict {
    const limit = expect.budget.maxDeliveriesPerOperation;
    if (limit === undefined) return pass();
    const over = operationLoads(new TrialIndex(record)).filter((op) => op.deliveries > limit);
    return failAll(
      over.map((op) => ({
        message: `one ${op.tool} operation reached the service ${op.deliveries} times (limit ${limit}): ${op.calls.length} agent call(s) (${list(op.calls)}), ${op.attempts} runtime attempt(s) in all, ${op.deliveries - op.attempts} more deliveries from client retries or duplicates; retry at one layer only (R10)`,
        evidence: { tool: op.tool, calls: op.calls, attempts: op.attempts, deliveries: op.deliveries, limit },
      })),
    );
  },
};
