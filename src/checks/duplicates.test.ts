import { describe, expect, it } from 'vitest';
import { duplicates } from './duplicates.js';
import { expectations, TrialBuilder } from './testing.js';

const order = { service: 'orders', effect: 'order.created', key: 'ref-1' };
const email = { service: 'email', effect: 'email.sent', key: 'welcome-1' };
const ex = expectations();

describe('duplicates', () => {
  it('passes a retry after a transient error that reuses its key and commits once', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', { clientReference: 'ref-1' });
    c.attempt({ key: 'k1', error: 'unavailable' });
    c.attempt({ key: 'k1', commit: order });
    c.outcome('ok');
    expect(duplicates.check(b.build(), ex)).toEqual({ valid: true });
  });

  it('blames the missing reconciliation, not the key, when the service does not honour keys', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', { clientReference: 'ref-1' }, 'write', false);
    c.attempt({ key: 'k1', error: 'timeout', commit: order });
    c.attempt({ key: 'k1', commit: order });
    expect(duplicates.check(b.build(), ex)).toMatchObject({
      valid: false,
      message:
        'orders:ref-1 was created 2 times (effects #0, #1; requests req-1, req-2; calls call-1 of ' +
        'create_order): resent to a service that does not honour idempotency keys; only reconciliation ' +
        'by business key prevents this (R21, R25)',
    });
  });

  it('does not count different keys or different effects on one key as duplicates', () => {
    const b = new TrialBuilder();
    b.call('create_order', { clientReference: 'ref-1' }).attempt({ key: 'k1', commit: order });
    b.call('create_order', { clientReference: 'ref-2' }).attempt({ key: 'k2', commit: { ...order, key: 'ref-2' } });
    b.call('cancel_order', { clientReference: 'ref-1' }).attempt({
      key: 'k3',
      commit: { ...order, effect: 'order.cancelled' },
    });
    expect(duplicates.check(b.build(), ex)).toEqual({ valid: true });
  });

  it('names the effects, requests, calls and the different keys of an R23 duplicate', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', { clientReference: 'ref-1' });
    c.attempt({ key: 'k1', error: 'timeout', commit: order, ms: 100 });
    b.advance(50);
    c.attempt({ key: 'k2', commit: order });
    const verdict = duplicates.check(b.build(), ex);
    expect(verdict).toEqual({
      valid: false,
      message:
        'orders:ref-1 was created 2 times (effects #0, #1; requests req-1, req-2; calls call-1 of ' +
        'create_order): 2 different idempotency keys (k1, k2) for one business operation, a new key per retry (R23)',
      evidence: [
        {
          subject: 'orders:ref-1',
          effect: 'order.created',
          effects: [
            { seq: 0, at: 0, request: 'req-1', t: 0, event: 3, idempotencyKey: 'k1' },
            { seq: 1, at: 150, request: 'req-2', t: 150, event: 8, idempotencyKey: 'k2' },
          ],
          requests: [
            {
              request: 'req-1',
              deliveries: 1,
              call: 'call-1',
              attempt: 1,
              tool: 'create_order',
              purpose: 'call',
              t: 0,
              idempotencyKey: 'k1',
            },
            {
              request: 'req-2',
              deliveries: 1,
              call: 'call-1',
              attempt: 2,
              tool: 'create_order',
              purpose: 'call',
              t: 150,
              idempotencyKey: 'k2',
            },
          ],
          calls: ['call-1'],
          idempotencyKeys: ['k1', 'k2'],
        },
      ],
    });
  });

  it('blames the service when one request delivered twice committed twice', () => {
    const b = new TrialBuilder();
    b.call('send_email', { messageId: 'welcome-1' }).attempt({ key: 'e1', commit: [email, email] });
    const verdict = duplicates.check(b.build(), ex);
    expect(verdict).toMatchObject({
      valid: false,
      message:
        'email:welcome-1 was sent 2 times (effects #0, #1; requests req-1; calls call-1 of send_email): ' +
        'request req-1 was delivered more than once and the service executed every copy (R24)',
    });
    if (verdict.valid !== false) throw new Error('expected a failure');
    expect(verdict.evidence[0]).toMatchObject({ requests: [{ request: 'req-1', deliveries: 2 }] });
  });

  it('says when a reused key was executed again (R24) and when no key was sent (R22, R25)', () => {
    const keyed = new TrialBuilder();
    keyed.call('send_email', { messageId: 'welcome-1' }).attempt({ key: 'e1', commit: email });
    keyed.call('send_email', { messageId: 'welcome-1' }).attempt({ key: 'e1', commit: email });
    expect(duplicates.check(keyed.build(), ex)).toMatchObject({
      message:
        'email:welcome-1 was sent 2 times (effects #0, #1; requests req-1, req-2; calls call-1, call-2 ' +
        'of send_email): the service executed idempotency key e1 again instead of replaying its first result (R24)',
    });

    const keyless = new TrialBuilder();
    keyless.call('send_email', { messageId: 'welcome-1' }).attempt({ commit: email });
    keyless.call('send_email', { messageId: 'welcome-1' }).attempt({ commit: email });
    expect(duplicates.check(keyless.build(), ex)).toMatchObject({
      message:
        'email:welcome-1 was sent 2 times (effects #0, #1; requests req-1, req-2; calls call-1, call-2 ' +
        'of send_email): resent without an idempotency key (R22, R25)',
    });
  });

  it('reports every duplicated subject', () => {
    const b = new TrialBuilder();
    b.call('x', {}).attempt({ commit: [email, email, order, order, order] });
    const verdict = duplicates.check(b.build(), ex);
    expect(verdict).toMatchObject({
      valid: false,
      evidence: [{ subject: 'email:welcome-1' }, { subject: 'orders:ref-1' }],
    });
    if (verdict.valid !== false) throw new Error('expected a failure');
    expect(verdict.message).toContain('orders:ref-1 was created 3 times (effects #2, #3, #4;');
  });
});
