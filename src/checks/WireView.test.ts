import { describe, expect, it } from 'vitest';
import type { NewEvent } from '../core/index.js';
import { amplification, operationLoads } from './amplification.js';
import { budget } from './budget.js';
import { retryDiscipline } from './retryDiscipline.js';
import { expectations, TrialBuilder } from './testing.js';
import { TrialIndex } from './trialIndex.js';
import { riskOfMethod, WireView } from './WireView.js';

const URL = 'https://api.shop.test/orders';

/** One request over HTTP and its 503 (or 201) answer, as HttpFaults records them. */
function exchange(t: TrialBuilder, n: number, extra: { clientCall?: string; call?: string; status?: number } = {}): void {
  const request = `http-${n}`;
  const status = extra.status ?? 503;
  const req: NewEvent = {
    type: 'http_request',
    request,
    tool: 'create_order',
    kind: 'tool',
    purpose: 'call',
    call: extra.call ?? 'create_order#1',
    attempt: n,
    callNumber: 1,
    groupedBy: extra.clientCall === undefined ? 'repeat' : 'header',
    method: 'POST',
    url: URL,
    bodyDigest: 'd1',
    risk: 'write',
    honoursKeys: true,
    ...(extra.clientCall === undefined ? {} : { clientCall: extra.clientCall }),
  };
  t.add(req);
  t.add({ type: 'response', request, tool: 'create_order', result: status < 400 ? 'ok' : 'error', status, errorKind: 'unavailable', method: 'POST', url: URL });
  t.advance(1000);
}

describe('WireView', () => {
  it('groups http_request events into logical calls with their answers, status queries apart', () => {
    const t = new TrialBuilder();
    exchange(t, 1);
    exchange(t, 2, { status: 201 });
    const view = new WireView(t.build().history);
    expect(view.calls.map((c) => [c.call, c.risk, c.honoursKeys, c.attempts.map((a) => `${a.request}:${a.answer?.status}`)])).toEqual([['create_order#1', 'write', true, ['http-1:503', 'http-2:201']]]);
    expect(view.callOf('http-2')?.call).toBe('create_order#1');
  });

  it('reads a route without a declared risk by its method', () => {
    expect(['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH'].map(riskOfMethod)).toEqual(['read', 'read', 'idempotent-write', 'idempotent-write', 'write', 'write']);
  });

  it('leaves requests that name an execution layer’s call to its attempt events: one verdict per attempt, never two', () => {
    const t = new TrialBuilder();
    // The executor's keyless write, sent over HTTP with its correlation headers, four times.
    t.add({ type: 'tool_call', call: 'call-1', tool: 'create_order', risk: 'write', honoursKeys: true, input: { clientReference: 'ref-1' } });
    for (let n = 1; n <= 4; n++) {
      t.add({ type: 'attempt', call: 'call-1', attempt: n, tool: 'create_order', purpose: 'call', request: `req-${n}` });
      exchange(t, n, { clientCall: 'call-1' });
      t.add({ type: 'attempt_end', call: 'call-1', attempt: n, purpose: 'call', request: `req-${n}`, result: 'error', error: { kind: 'unavailable', message: '503', retryable: true, status: 503 } });
    }
    const record = t.build({ end: { kind: 'agent_ended', outcome: 'completed' } });
    const view = new WireView(record.history);
    expect(view.calls).toEqual([]);
    expect(view.executorRequests.get('call-1')?.map((a) => a.request)).toEqual(['http-1', 'http-2', 'http-3', 'http-4']);

    const discipline = retryDiscipline.check(record, expectations());
    expect(discipline.valid === false && discipline.evidence.map((e) => (e as { rule: string; source?: string }).source ?? 'executor')).toEqual(['executor']);
    const overBudget = budget.check(record, expectations());
    expect(overBudget.valid === false && overBudget.evidence).toHaveLength(1);
    // The HTTP sends are the load the executor's call put on the service.
    expect(operationLoads(new TrialIndex(record))).toEqual([{ source: 'executor', tool: 'create_order', calls: ['call-1'], attempts: 4, deliveries: 4 }]);
    expect(amplification.check(record, expectations({ budget: { ...expectations().budget, maxDeliveriesPerOperation: 4 } }))).toEqual({ valid: true });
  });

  it('judges the same requests from the wire when no execution layer claims them', () => {
    const t = new TrialBuilder();
    for (let n = 1; n <= 4; n++) exchange(t, n);
    const record = t.build({ end: { kind: 'agent_ended', outcome: 'completed' } });
    const discipline = retryDiscipline.check(record, expectations());
    expect(discipline.valid === false && discipline.evidence).toMatchObject([{ rule: 'R7', source: 'wire', call: 'create_order#1' }]);
    expect(budget.check(record, expectations())).toMatchObject({ valid: false, evidence: [{ source: 'wire', attempts: 4, limit: 3 }] });
  });
});
