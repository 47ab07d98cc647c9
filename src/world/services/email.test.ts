import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/index.js';
import { createWorld } from '../createWorld.js';
import { deliver, findTool, queryStatus } from '../deliver.js';

const mail = { messageId: 'welcome-1', to: 'ada@example.com', subject: 'Welcome', body: 'Hello Ada' };

describe('email', () => {
  it('declares its tools and checks the address in the schema', () => {
    const w = createWorld(new VirtualClock(), { email: {} });
    expect(
      w.tools.map((t) => [t.name, t.risk, t.honoursIdempotencyKeys, t.canQueryStatus, t.businessKeyField]),
    ).toEqual([
      ['send_email', 'write', true, true, 'messageId'],
      ['list_outbox', 'read', false, false, undefined],
    ]);
    expect(findTool(w, 'send_email').input.safeParse({ ...mail, to: 'not-an-address' }).success).toBe(false);
    expect(findTool(w, 'list_outbox').input.safeParse({ all: true }).success).toBe(false);
  });

  it('sends, lists the outbox and commits email.sent', async () => {
    const clock = new VirtualClock(42);
    const w = createWorld(clock, { email: {} });
    const sent = { emailId: 'msg-1', ...mail, sentAt: 42 };
    expect(await deliver(w, 'send_email', mail, { request: 'req-1', idempotencyKey: 'k' })).toEqual(sent);
    expect(await deliver(w, 'list_outbox', {}, { request: 'req-2' })).toEqual([sent]);
    expect(w.ledger.effects).toEqual([
      {
        seq: 0,
        at: 42,
        service: 'email',
        effect: 'email.sent',
        key: 'welcome-1',
        request: 'req-1',
        idempotencyKey: 'k',
        data: sent,
      },
    ]);
    expect(w.snapshot().services).toEqual({ email: { 'msg-1': { ...mail, sentAt: 42 } } });
  });

  it('sends twice for a duplicate delivery unless the key is honoured', async () => {
    const on = createWorld(new VirtualClock(), { email: {} });
    await deliver(on, 'send_email', mail, { request: 'r', idempotencyKey: 'k' });
    await deliver(on, 'send_email', mail, { request: 'r', idempotencyKey: 'k' });
    expect(on.ledger.length).toBe(1);
    const off = createWorld(new VirtualClock(), { email: { idempotency: false } });
    await deliver(off, 'send_email', mail, { request: 'r', idempotencyKey: 'k' });
    await deliver(off, 'send_email', mail, { request: 'r', idempotencyKey: 'k' });
    expect(await deliver(off, 'list_outbox', {}, { request: 'q' })).toMatchObject([
      { emailId: 'msg-1' },
      { emailId: 'msg-2' },
    ]);
  });

  it('answers status queries by key and by message id', async () => {
    const w = createWorld(new VirtualClock(), { email: {} });
    expect(await queryStatus(w, 'send_email', { op: 'o', input: mail }, { request: 's' })).toEqual({
      state: 'not_found',
    });
    await deliver(w, 'send_email', mail, { request: 'r', idempotencyKey: 'k' });
    const value = { emailId: 'msg-1', ...mail, sentAt: 0 };
    expect(await queryStatus(w, 'send_email', { op: 'o', idempotencyKey: 'k', input: {} }, { request: 's' })).toEqual({
      state: 'succeeded',
      value,
    });
    expect(await queryStatus(w, 'send_email', { op: 'o', input: mail }, { request: 's' })).toEqual({
      state: 'succeeded',
      value,
    });
    await expect(queryStatus(w, 'list_outbox', { op: 'o', input: {} }, { request: 's' })).rejects.toMatchObject({
      status: 405,
    });
  });
});
