import { describe, expect, it } from 'vitest';
import { CallTracker, type TrackedRequest } from './CallTracker.js';

const req = (
  operation: string,
  headers: Record<string, string> = {},
  more: Partial<TrackedRequest> = {},
): TrackedRequest => ({
  operation,
  purpose: 'call',
  kind: operation.startsWith('model:') ? 'model' : 'tool',
  method: 'POST',
  url: `https://api.test/${operation}`,
  headers,
  digest: 'd1',
  ...more,
});

const at = (p: { call: string; attempt: number; by: string }): string => `${p.call}/${p.attempt}/${p.by}`;

describe('CallTracker', () => {
  it('groups requests into calls by Idempotency-Key, counting attempts per key', () => {
    const t = new CallTracker();
    expect(t.place(req('create_order', { 'idempotency-key': 'a' }, { digest: 'x' }))).toEqual({
      call: 'create_order#1',
      callNumber: 1,
      attempt: 1,
      by: 'new',
    });
    expect(t.place(req('create_order', { 'idempotency-key': 'b' }, { digest: 'y' }))).toEqual({
      call: 'create_order#2',
      callNumber: 2,
      attempt: 1,
      by: 'new',
    });
    expect(t.place(req('create_order', { 'idempotency-key': 'a' }, { digest: 'x' }))).toEqual({
      call: 'create_order#1',
      callNumber: 1,
      attempt: 2,
      by: 'key',
    });
    expect(t.place(req('get_order', { 'idempotency-key': 'a' }))).toEqual({
      call: 'get_order#1',
      callNumber: 1,
      attempt: 1,
      by: 'new',
    });
  });

  it('continues the latest call on an SDK retry count above zero, and starts a new one at zero with another body', () => {
    const t = new CallTracker();
    const chat = 'model:openai.chat.completions';
    const sent: [string, string][] = [
      ['0', 'a'],
      ['1', 'a'],
      ['2', 'a'],
      ['0', 'b'],
      ['1', 'b'],
    ];
    expect(sent.map(([n, digest]) => t.place(req(chat, { 'x-stainless-retry-count': n }, { digest })))).toEqual([
      { call: `${chat}#1`, callNumber: 1, attempt: 1, by: 'new' },
      { call: `${chat}#1`, callNumber: 1, attempt: 2, by: 'sdk' },
      { call: `${chat}#1`, callNumber: 1, attempt: 3, by: 'sdk' },
      { call: `${chat}#2`, callNumber: 2, attempt: 1, by: 'new' },
      { call: `${chat}#2`, callNumber: 2, attempt: 2, by: 'sdk' },
    ]);
  });

  it(
    'reads a retry count of 0 on an unchanged body as a resend (LangChain resends with maxRetries: ' +
      '0), and numbers the SDK retries within on',
    () => {
      const t = new CallTracker();
      const chat = 'model:openai.chat.completions';
      const sent = ['0', '0', '1', '0'].map((n) => at(t.place(req(chat, { 'x-stainless-retry-count': n }))));
      expect(sent).toEqual([`${chat}#1/1/new`, `${chat}#1/2/repeat`, `${chat}#1/3/sdk`, `${chat}#1/4/repeat`]);
      // Once answered with a success, the same body again is new work.
      t.answered(`${chat}#1`, true);
      expect(at(t.place(req(chat, { 'x-stainless-retry-count': '0' })))).toBe(`${chat}#2/1/new`);
    },
  );

  it('takes explicit x-faultline headers over everything', () => {
    const t = new CallTracker();
    expect(
      t.place(req('op', { 'x-faultline-call': 'c1', 'x-faultline-attempt': '4', 'idempotency-key': 'k' })),
    ).toEqual({ call: 'op#1', callNumber: 1, attempt: 4, by: 'header' });
    expect(t.place(req('op', { 'x-faultline-call': 'c2' }))).toEqual({
      call: 'op#2',
      callNumber: 2,
      attempt: 1,
      by: 'header',
    });
    expect(t.place(req('op', { 'x-faultline-call': 'c1' }))).toEqual({
      call: 'op#1',
      callNumber: 1,
      attempt: 2,
      by: 'header',
    });
  });

  it('reads a keyless resend of the same method, URL and body as the next attempt of its call', () => {
    const t = new CallTracker();
    expect(
      [
        t.place(req('create_order')),
        t.place(req('create_order')),
        t.place(req('create_order', {}, { digest: 'other' })),
        t.place(req('create_order')),
      ].map(at),
    ).toEqual(['create_order#1/1/new', 'create_order#1/2/repeat', 'create_order#2/1/new', 'create_order#1/3/repeat']);
  });

  it('keeps one call across a new key per retry (R23), and the new key names that call from then on', () => {
    const t = new CallTracker();
    const sent = ['k1', 'k2', 'k1', 'k2'].map((k) => at(t.place(req('create_order', { 'idempotency-key': k }))));
    expect(sent).toEqual([
      'create_order#1/1/new',
      'create_order#1/2/repeat',
      'create_order#1/3/key',
      'create_order#1/4/key',
    ]);
  });

  it('closes the same-request window on a success, and for tool routes on any model request', () => {
    const t = new CallTracker();
    const first = t.place(req('get_order', {}, { method: 'GET' }));
    t.answered(first.call, true);
    expect(at(t.place(req('get_order', {}, { method: 'GET' })))).toBe('get_order#2/1/new');

    t.place(req('create_order'));
    t.place(req('model:openai.chat.completions', {}, { digest: 'turn-2' }));
    expect(at(t.place(req('create_order')))).toBe('create_order#2/1/new');
  });

  it('groups a model request resent unchanged (the AI SDK sends no retry header) until another model request arrives', () => {
    const t = new CallTracker();
    const chat = 'model:openai.chat.completions';
    const sent = ['a', 'a', 'a', 'b', 'a'].map((digest) => at(t.place(req(chat, {}, { digest }))));
    expect(sent).toEqual([
      `${chat}#1/1/new`,
      `${chat}#1/2/repeat`,
      `${chat}#1/3/repeat`,
      `${chat}#2/1/new`,
      `${chat}#3/1/new`,
    ]);
  });

  it('joins a status query to the latest call, its attempts counted apart', () => {
    const t = new CallTracker();
    t.place(req('create_order'));
    const status = {
      purpose: 'status',
      method: 'GET',
      url: 'https://api.test/orders/status?clientReference=r1',
    } as const;
    expect(
      [
        t.place(req('create_order', {}, status)),
        t.place(req('create_order', {}, status)),
        t.place(req('create_order')),
      ].map(at),
    ).toEqual(['create_order#1/1/status', 'create_order#1/2/status', 'create_order#1/2/repeat']);
  });
});
