import { failAll, pass, type Verdict } from '../core/index.js';
import type { Checker } from './checker.js';
import { list } from './format.js';
import { STATUS_TOOL, TrialIndex } from './trialIndex.js';

/** One logical operation: every call of one tool with one input, and the load it put on the service. */
export interface OperationLoad {
  /** `executor`: the execution layer's calls (`tool_call`); `wire`: calls seen only in the HTTP traffic. */
  readonly source: 'executor' | 'wire';
  readonly tool: string;
  readonly calls: readonly string[];
  readonly attempts: number;
  readonly deliveries: number;
}

/**
 * Groups the agent's calls into logical operations: the agent re-calling a tool with the
 * same input is a retry at the agent's layer, not new work (R10). Calls seen only on the
 * wire (`WireView`) group by the request itself: the same method, URL and body.
 */
export function operationLoads(index: TrialIndex): OperationLoad[] {
  const load = index.load;
  const wire = index.wire;
  type Op = { source: OperationLoad['source']; tool: string; calls: string[]; attempts: number; deliveries: number };
  // The executor's operations by the index's number for (tool, canonical input), the wire's by their request; listed in that order.
  const executorOps = new Map<number, Op>();
  const wireOps = new Map<string, Op>();
  const operation = <K>(ops: Map<K, Op>, source: Op['source'], id: K, tool: string): Op => {
    let op = ops.get(id);
    if (!op) ops.set(id, (op = { source, tool, calls: [], attempts: 0, deliveries: 0 }));
    return op;
  };
  for (const call of index.calls) {
    if (call.tool === STATUS_TOOL) continue;
    addExecutorCall(operation(executorOps, 'executor', index.operationOf(call), call.tool), call.call, index);
  }
  // Calls seen only on the wire: one operation per request (tool, method, URL, body), across every call that sent it.
  for (const call of wire.toolCalls) {
    const first = call.attempts[0];
    if (!first) continue;
    const op = operation(
      wireOps,
      'wire',
      `${call.tool}\u0000${first.method} ${first.url}\u0000${first.bodyDigest}`,
      call.tool,
    );
    op.calls.push(call.call);
    for (const a of call.attempts) {
      op.attempts++;
      op.deliveries += load.get(a.request) ?? 0;
    }
  }
  return [...executorOps.values(), ...wireOps.values()];
}

/**
 * Counts one of the execution layer's calls into its operation: its attempts, and the deliveries
 * they caused. Exported for the property test's older grouping, which counted alike.
 */
export function addExecutorCall(
  op: { calls: string[]; attempts: number; deliveries: number },
  call: string,
  index: TrialIndex,
): void {
  const load = index.load;
  op.calls.push(call);
  for (const a of index.callAttemptsOf(call)) {
    op.attempts++;
    op.deliveries += load.get(a.request) ?? 0;
  }
  // The HTTP requests it sent, when its transport went over a faulted HTTP service (their own ids).
  for (const a of index.wire.executorRequests.get(call) ?? [])
    if (a.purpose === 'call') op.deliveries += load.get(a.request) ?? 0;
}

/** R10: retry layers multiply; the deliveries one logical operation causes stay within the scenario's limit. */
export const amplification: Checker = {
  name: 'amplification',
  rules: ['R10'],
  description:
    'Deliveries to a service per logical operation, across the SDK, the execution layer and the agent, stay within the limit.',
  check(record, expect): Verdict {
    const limit = expect.budget.maxDeliveriesPerOperation;
    if (limit === undefined) return pass();
    const over = operationLoads(TrialIndex.of(record)).filter((op) => op.deliveries > limit);
    return failAll(
      over.map((op) => ({
        message:
          op.source === 'wire'
            ? `one ${op.tool} request reached the service ${op.deliveries} times (limit ${limit}): ` +
              `${op.calls.length} logical call(s) (${list(op.calls)}) sent it ${op.attempts} time(s) ` +
              `in all, ${op.deliveries - op.attempts} more deliveries from duplicates; retry at one layer only (R10)`
            : `one ${op.tool} operation reached the service ${op.deliveries} times (limit ${limit}): ` +
              `${op.calls.length} agent call(s) (${list(op.calls)}), ${op.attempts} runtime attempt(s) ` +
              `in all, ${op.deliveries - op.attempts} more deliveries from client retries or duplicates; retry at one layer only (R10)`,
        evidence: {
          ...(op.source === 'wire' ? { source: 'wire' } : {}),
          tool: op.tool,
          calls: op.calls,
          attempts: op.attempts,
          deliveries: op.deliveries,
          limit,
        },
      })),
    );
  },
};
