import { describe, expect, it } from 'vitest';
import { amplification } from './amplification.js';
import { expectations, TrialBuilder } from './testing.js';

const limit = (maxDeliveriesPerOperation?: number) =>
  expectations({
    budget: {
      maxTurns: 10,
      maxToolCalls: 10,
      maxAttemptsPerCall: 3,
      deadlineMs: 60_000,
      ...(maxDeliveriesPerOperation && { maxDeliveriesPerOperation }),
    },
  });

/** An agent that calls `tool` `calls` times with one input; each call makes `attempts` attempts, each delivered `copies` times. */
function layered(calls: number, attempts: number, copies: number) {
  const b = new TrialBuilder();
  for (let c = 0; c < calls; c++) {
    const call = b.call('send_email', { messageId: 'm-1' });
    for (let a = 0; a < attempts; a++) call.attempt({ error: { kind: 'unavailable', status: 503 }, copies });
    call.outcome('error', { error: 'unavailable' });
  }
  // A status query is reconciliation, not load.
  b.call('query_operation_status', { operation_id: 'op-1' }, 'read').attempt({ copies: 5 });
  return b.agentEnd('failed').build();
}

describe('amplification', () => {
  it('counts every layer: 3 agent calls × 3 attempts × 3 SDK deliveries = 27 for one operation', () => {
    const verdict = amplification.check(layered(3, 3, 3), limit(9));
    expect(verdict).toEqual({
      valid: false,
      message:
        'one send_email operation reached the service 27 times (limit 9): 3 agent call(s) (call-1, ' +
        'call-2, call-3), 9 runtime attempt(s) in all, 18 more deliveries from client retries or duplicates; retry at one layer only (R10)',
      evidence: [{ tool: 'send_email', calls: ['call-1', 'call-2', 'call-3'], attempts: 9, deliveries: 27, limit: 9 }],
    });
  });

  it('passes load within the limit, and any load when the scenario sets none', () => {
    expect(amplification.check(layered(1, 3, 3), limit(9))).toEqual({ valid: true });
    expect(amplification.check(layered(3, 3, 3), limit())).toEqual({ valid: true });
  });

  it('treats calls with different inputs as different operations', () => {
    const b = new TrialBuilder();
    for (const id of ['m-1', 'm-2', 'm-3']) b.call('send_email', { messageId: id }).attempt({ copies: 4 });
    expect(amplification.check(b.agentEnd('completed').build(), limit(4))).toEqual({ valid: true });
  });
});
