import { describe, expect, it } from 'vitest';
import { retryDiscipline } from './retryDiscipline.js';
import { expectations, TrialBuilder } from './testing.js';

const ex = expectations();
const order = { service: 'orders', effect: 'order.created', key: 'ref-1' };
const input = { clientReference: 'ref-1', amount: 10 };

function messages(b: TrialBuilder): string[] {
  const verdict = retryDiscipline.check(b.build(), ex);
  if (verdict.valid !== false) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`);
  return verdict.message.split('; ');
}

describe('retryDiscipline', () => {
  it('passes a retry after a transient error with the same key, after its Retry-After', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', input);
    c.attempt({ key: 'k1', error: { kind: 'rate_limit', retryAfterMs: 1_000 }, ms: 20 });
    b.advance(1_000);
    c.attempt({ key: 'k1', error: 'timeout' });
    c.attempt({ key: 'k1', commit: order });
    c.outcome('ok');
    expect(retryDiscipline.check(b.build(), ex)).toEqual({ valid: true });
  });

  it('fails an attempt after quota_exceeded (R5), naming both attempts', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', input);
    c.attempt({ key: 'k1', error: 'quota_exceeded', ms: 5 });
    b.advance(100);
    c.attempt({ key: 'k1' });
    expect(retryDiscipline.check(b.build(), ex)).toEqual({
      valid: false,
      message:
        'create_order call-1 attempt 2 (req-2) at t=105ms resent the same input after the quota_exceeded ' +
        'error of call-1 attempt 1 at t=5ms: waiting does not help an exhausted quota (R5)',
      evidence: [
        {
          rule: 'R5',
          attempt: { call: 'call-1', attempt: 2, request: 'req-2', tool: 'create_order', seq: 4, t: 105 },
          after: { call: 'call-1', attempt: 1, kind: 'quota_exceeded', seq: 3, t: 5 },
        },
      ],
    });
  });

  it('fails a new call with the same input after a permanent error (R7), but not one with a fixed input', () => {
    const b = new TrialBuilder();
    b.call('create_order', input, 'idempotent-write').attempt({ error: 'invalid_argument' });
    b.call('create_order', { amount: 10, clientReference: 'ref-1' }, 'idempotent-write').attempt();
    expect(messages(b)).toEqual([
      'create_order call-2 attempt 1 (req-2) at t=0ms resent the same input after the invalid_argument ' +
        'error of call-1 attempt 1 at t=0ms: permanent errors are never retried (R7)',
    ]);

    const fixed = new TrialBuilder();
    fixed
      .call('create_order', { clientReference: 'ref-1', amount: -1 }, 'idempotent-write')
      .attempt({ error: 'invalid_argument' });
    fixed.call('create_order', input, 'idempotent-write').attempt();
    expect(retryDiscipline.check(fixed.build(), ex)).toEqual({ valid: true });
  });

  it('does not treat polling query_operation_status again after not_found as a retry', () => {
    const b = new TrialBuilder();
    const q1 = b.call('query_operation_status', { operation_id: 'op-1' }, 'read');
    q1.attempt({ error: 'not_found' });
    q1.outcome('error', { error: 'not_found' });
    b.advance(1_000);
    b.call('query_operation_status', { operation_id: 'op-1' }, 'read').attempt();
    expect(retryDiscipline.check(b.build(), ex)).toEqual({ valid: true });
  });

  it('reading again after a write in between, or a not_found after a wait, is a new question, not a retried permanent error (R7)', () => {
    const polling = new TrialBuilder();
    polling.call('get_ticket', { ticketId: 'tkt-1' }, 'read').attempt({ error: 'not_found' });
    polling.call('open_ticket', { requestId: 'r-1' }).attempt();
    polling.call('get_ticket', { ticketId: 'tkt-1' }, 'read').attempt();
    expect(retryDiscipline.check(polling.build(), ex)).toEqual({ valid: true });

    const waited = new TrialBuilder();
    waited.call('get_job', { jobId: 'j-1' }, 'read').attempt({ error: 'not_found' });
    waited.advance(500);
    waited.call('get_job', { jobId: 'j-1' }, 'read').attempt();
    expect(retryDiscipline.check(waited.build(), ex)).toEqual({ valid: true });
  });

  it('still fails a read resent at once after not_found, a denied read resent after a wait, and a retry inside one call (R7)', () => {
    const atOnce = new TrialBuilder();
    atOnce.call('get_ticket', { ticketId: 'tkt-1' }, 'read').attempt({ error: 'not_found' });
    atOnce.call('get_ticket', { ticketId: 'tkt-1' }, 'read').attempt();
    expect(messages(atOnce)).toEqual([
      'get_ticket call-2 attempt 1 (req-2) at t=0ms resent the same input after the not_found error ' +
        'of call-1 attempt 1 at t=0ms: permanent errors are never retried (R7)',
    ]);

    const denied = new TrialBuilder();
    denied.call('get_ticket', { ticketId: 'tkt-1' }, 'read').attempt({ error: 'permission_denied' });
    denied.advance(500);
    denied.call('get_ticket', { ticketId: 'tkt-1' }, 'read').attempt();
    expect(messages(denied)).toHaveLength(1);

    const sameCall = new TrialBuilder();
    const c = sameCall.call('get_ticket', { ticketId: 'tkt-1' }, 'read');
    c.attempt({ error: 'not_found' });
    sameCall.call('open_ticket', { requestId: 'r-1' }).attempt();
    sameCall.advance(500);
    c.attempt();
    expect(messages(sameCall)).toEqual([
      'get_ticket call-1 attempt 2 (req-3) at t=500ms resent the same input after the not_found error ' +
        'of call-1 attempt 1 at t=0ms: permanent errors are never retried (R7)',
    ]);
  });

  it('fails a retried write with different keys (R23) or without a key (R7)', () => {
    const b = new TrialBuilder();
    const c1 = b.call('create_order', input);
    c1.attempt({ key: 'k1', error: 'timeout' });
    c1.attempt({ key: 'k2' });
    const c2 = b.call('send_email', { messageId: 'm-1' });
    c2.attempt({ error: 'network' });
    c2.attempt();
    const verdict = retryDiscipline.check(b.build(), ex);
    expect(verdict).toMatchObject({
      valid: false,
      message:
        'write call-1 (create_order) used 2 different idempotency keys (k1, k2) across its attempts ' +
        '(requests req-1, req-2): one operation keeps one key (R23); ' +
        'write call-2 (send_email) was retried 1 times with 2 attempts carrying no idempotency key ' +
        '(requests req-3, req-4): a side-effecting call is retried only with a key (R7)',
      evidence: [
        {
          rule: 'R23',
          call: 'call-1',
          attempts: [
            { attempt: 1, request: 'req-1', idempotencyKey: 'k1' },
            { attempt: 2, request: 'req-2', idempotencyKey: 'k2' },
          ],
        },
        { rule: 'R7', call: 'call-2', attempts: [{ request: 'req-3' }, { request: 'req-4' }] },
      ],
    });
  });

  it('fails a write retried with one key against a service that does not honour keys (R7)', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', input, 'write', false);
    c.attempt({ key: 'k1', error: 'timeout' });
    c.attempt({ key: 'k1' });
    expect(retryDiscipline.check(b.build(), ex)).toMatchObject({
      valid: false,
      message:
        'write call-1 (create_order) was retried 1 times against a service that does not honour ' +
        'idempotency keys (requests req-1, req-2): a key the server ignores protects nothing (R7)',
      evidence: [{ rule: 'R7', call: 'call-1' }],
    });
  });

  it('does not ask for keys on a write sent once or on an idempotent write', () => {
    const b = new TrialBuilder();
    b.call('create_order', input).attempt();
    const c = b.call('set_flag', { id: 'f' }, 'idempotent-write');
    c.attempt({ error: 'timeout' });
    c.attempt();
    expect(retryDiscipline.check(b.build(), ex)).toEqual({ valid: true });
  });

  it('fails an attempt to the same tool before the Retry-After elapsed (R9), even from a new call', () => {
    const b = new TrialBuilder();
    b.call('get_order', { clientReference: 'ref-1' }, 'read').attempt({
      error: { kind: 'rate_limit', retryAfterMs: 2_000 },
      ms: 100,
    });
    b.advance(500);
    b.call('get_order', { clientReference: 'ref-2' }, 'read').attempt();
    expect(retryDiscipline.check(b.build(), ex)).toMatchObject({
      valid: false,
      message:
        'get_order call-2 attempt 1 (req-2) at t=600ms was sent before the 2000ms Retry-After of call-1 ' +
        'attempt 1 (t=100ms) elapsed at t=2100ms (R9)',
      evidence: [
        {
          rule: 'R9',
          attempt: { call: 'call-2', request: 'req-2', t: 600 },
          retryAfter: { call: 'call-1', attempt: 1, until: 2_100 },
        },
      ],
    });
  });

  it('fails a resend of an unknown call without a status query first (R21, R27)', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', input);
    c.attempt({ key: 'k1', error: 'timeout', commit: order, ms: 1_000 });
    c.outcome('unknown', { op: 'op-1' });
    b.advance(10);
    b.call('create_order', input).attempt({ key: 'k2' });
    expect(retryDiscipline.check(b.build(), ex)).toMatchObject({
      valid: false,
      message:
        'create_order call-2 attempt 1 (req-2) at t=1010ms resent the input of call-1 after its unknown ' +
        'outcome (op-1) at t=1000ms without querying its status first (R21, R27)',
      evidence: [
        {
          rule: 'R21',
          unknown: { call: 'call-1', op: 'op-1', t: 1_000, requests: ['req-1'] },
          resend: { call: 'call-2', request: 'req-2', idempotencyKey: 'k2' },
          idempotencyKeys: ['k1', 'k2'],
        },
      ],
    });
  });

  it('passes a resend with the same key after the agent or the runtime queried the status of the unknown call', () => {
    for (const query of ['agent', 'runtime'] as const) {
      const b = new TrialBuilder();
      const c = b.call('create_order', input);
      c.attempt({ key: 'k1', error: 'timeout' });
      if (query === 'runtime') c.attempt({ key: 'k1', purpose: 'status' });
      c.outcome('unknown', { op: 'op-1' });
      if (query === 'agent')
        b.call('query_operation_status', { operation_id: 'op-1' }, 'read').attempt({ purpose: 'status' });
      b.call('create_order', input).attempt({ key: 'k1', commit: order });
      expect(retryDiscipline.check(b.build(), ex)).toEqual({ valid: true });
    }
  });
});
