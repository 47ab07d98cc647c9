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
function exchange(
  t: TrialBuilder,
  n: number,
  extra: { clientCall?: string; call?: string; status?: number } = {},
): void {
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
  t.add({
    type: 'response',
    request,
    tool: 'create_order',
    result: status < 400 ? 'ok' : 'error',
    status,
    errorKind: 'unavailable',
    method: 'POST',
    url: URL,
  });
  t.advance(1000);
}

describe('WireView', () => {
  it('groups http_request events into logical calls with their answers, status queries apart', () => {
    const t = new TrialBuilder();
    exchange(t, 1);
    exchange(t, 2, { status: 201 });
    const view = new WireView(t.build().history);
    expect(
      view.calls.map((c) => [c.call, c.risk, c.honoursKeys, c.attempts.map((a) => `${a.request}:${a.answer?.status}`)]),
    ).toEqual([['create_order#1', 'write', true, ['http-1:503', 'http-2:201']]]);
    expect(view.callOf('http-2')?.call).toBe('create_order#1');
  });

  it('reads a route without a declared risk by its method', () => {
    expect(['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH'].map(riskOfMethod)).toEqual([
      'read',
      'read',
      'idempotent-write',
      'idempotent-write',
      'write',
      'write',
    ]);
  });

  it('leaves requests that name an execution layer’s call to its attempt events: one verdict per attempt, never two', () => {
    const t = new TrialBuilder();
    // The executor's keyless write, sent over HTTP with its correlation headers, four times.
    t.call('create_order', { clientReference: 'ref-1' });
    for (let n = 1; n <= 4; n++) {
      t.add({
        type: 'attempt',
        call: 'call-1',
        attempt: n,
        tool: 'create_order',
        purpose: 'call',
        request: `req-${n}`,
      });
      exchange(t, n, { clientCall: 'call-1' });
      t.add({
        type: 'attempt_end',
        call: 'call-1',
        attempt: n,
        purpose: 'call',
        request: `req-${n}`,
        result: 'error',
        error: { kind: 'unavailable', message: '503', retryable: true, status: 503 },
      });
    }
    const record = t.build({ end: { kind: 'agent_ended', outcome: 'completed' } });
    const view = new WireView(record.history);
    expect(view.calls).toEqual([]);
    expect(view.executorRequests.get('call-1')?.map((a) => a.request)).toEqual([
      'http-1',
      'http-2',
      'http-3',
      'http-4',
    ]);

    const discipline = retryDiscipline.check(record, expectations());
    expect(
      discipline.valid === false &&
        discipline.evidence.map((e) => (e as { rule: string; source?: string }).source ?? 'executor'),
    ).toEqual(['executor']);
    const overBudget = budget.check(record, expectations());
    expect(overBudget.valid === false && overBudget.evidence).toHaveLength(1);
    // The HTTP sends are the load the executor's call put on the service.
    expect(operationLoads(TrialIndex.of(record))).toEqual([
      { source: 'executor', tool: 'create_order', calls: ['call-1'], attempts: 4, deliveries: 4 },
    ]);
    expect(
      amplification.check(record, expectations({ budget: { ...expectations().budget, maxDeliveriesPerOperation: 4 } })),
    ).toEqual({ valid: true });
  });

  it('judges the same requests from the wire when no execution layer claims them', () => {
    const t = new TrialBuilder();
    for (let n = 1; n <= 4; n++) exchange(t, n);
    const record = t.build({ end: { kind: 'agent_ended', outcome: 'completed' } });
    const discipline = retryDiscipline.check(record, expectations());
    expect(discipline.valid === false && discipline.evidence).toMatchObject([
      { rule: 'R7', source: 'wire', call: 'create_order#1' },
    ]);
    expect(budget.check(record, expectations())).toMatchObject({
      valid: false,
      evidence: [{ source: 'wire', attempts: 4, limit: 3 }],
    });
  });
});

describe('polling is not a retried permanent error (R7)', () => {
  const BASE = 'https://helpdesk.test';
  let n = 0;
  /** One request of a fetch agent and its answer, grouped as CallTracker would. */
  function send(
    t: TrialBuilder,
    o: {
      method: string;
      path: string;
      tool: string;
      call: string;
      status: number;
      groupedBy?: 'repeat' | 'new' | 'sdk';
    },
  ): void {
    const request = `http-${++n}`;
    t.add({
      type: 'http_request',
      request,
      tool: o.tool,
      kind: 'tool',
      purpose: 'call',
      call: o.call,
      attempt: 1,
      callNumber: 1,
      groupedBy: o.groupedBy ?? 'new',
      method: o.method,
      url: `${BASE}${o.path}`,
      bodyDigest: 'd0',
    });
    const error = o.status >= 400;
    t.add({
      type: 'response',
      request,
      tool: o.tool,
      result: error ? 'error' : 'ok',
      status: o.status,
      ...(error ? { errorKind: o.status === 404 ? 'not_found' : 'permission_denied' } : {}),
    });
  }
  const head = (status: number, groupedBy: 'repeat' | 'new' | 'sdk' = 'repeat') => ({
    method: 'HEAD',
    path: '/tickets/tkt-1',
    tool: 'get_ticket',
    call: 'get_ticket#1',
    status,
    groupedBy,
  });
  const judge = (t: TrialBuilder) =>
    retryDiscipline.check(t.build({ end: { kind: 'agent_ended', outcome: 'completed' } }), expectations());

  it('HEAD 404, POST 201, HEAD 200 passes: the read after a write asks anew', () => {
    const t = new TrialBuilder();
    send(t, head(404, 'new'));
    send(t, { method: 'POST', path: '/tickets', tool: 'create_ticket', call: 'create_ticket#1', status: 201 });
    send(t, head(200));
    expect(judge(t)).toEqual({ valid: true });
  });

  it('a 404 read again after a wait passes; at once, or as an SDK retry, it is still R7', () => {
    const waited = new TrialBuilder();
    send(waited, head(404, 'new'));
    waited.advance(1000);
    send(waited, head(200));
    expect(judge(waited)).toEqual({ valid: true });

    const atOnce = new TrialBuilder();
    send(atOnce, head(404, 'new'));
    send(atOnce, head(404));
    expect(judge(atOnce)).toMatchObject({
      valid: false,
      evidence: [{ rule: 'R7', source: 'wire', after: { answer: { status: 404 } } }],
    });

    const sdk = new TrialBuilder();
    send(sdk, head(404, 'new'));
    sdk.advance(1000);
    send(sdk, head(404, 'sdk'));
    expect(judge(sdk)).toMatchObject({ valid: false, evidence: [{ rule: 'R7', source: 'wire' }] });
  });

  it('a write to another service in between does not excuse a 403 read resent at once', () => {
    const t = new TrialBuilder();
    send(t, { ...head(403, 'new'), path: '/tickets/tkt-1' });
    t.add({
      type: 'http_request',
      request: 'http-x',
      tool: 'create_order',
      kind: 'tool',
      purpose: 'call',
      call: 'create_order#1',
      attempt: 1,
      callNumber: 1,
      groupedBy: 'new',
      method: 'POST',
      url: 'https://api.shop.test/orders',
      bodyDigest: 'd9',
    });
    send(t, head(200));
    expect(judge(t)).toMatchObject({ valid: false, evidence: [{ rule: 'R7' }] });
  });
});
