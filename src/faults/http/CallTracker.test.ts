import { describe, expect, it } from 'vitest';
import { CallTracker } from './CallTracker.js';

describe('CallTracker', () => {
  it('groups requests into calls by Idempotency-Key, counting attempts per key', () => {
    const t = new CallTracker();
    expect(t.place('create_order', { 'idempotency-key': 'a' })).toEqual({ call: 'create_order#1', callNumber: 1, attempt: 1 });
    expect(t.place('create_order', { 'idempotency-key': 'b' })).toEqual({ call: 'create_order#2', callNumber: 2, attempt: 1 });
    expect(t.place('create_order', { 'idempotency-key': 'a' })).toEqual({ call: 'create_order#1', callNumber: 1, attempt: 2 });
    expect(t.place('get_order', { 'idempotency-key': 'a' })).toEqual({ call: 'get_order#1', callNumber: 1, attempt: 1 });
  });

  it('continues the latest call on an SDK retry count above zero, and starts a new one at zero', () => {
    const t = new CallTracker();
    const chat = 'model:openai.chat.completions';
    expect(['0', '1', '2', '0', '1'].map((n) => t.place(chat, { 'x-stainless-retry-count': n }))).toEqual([
      { call: `${chat}#1`, callNumber: 1, attempt: 1 },
      { call: `${chat}#1`, callNumber: 1, attempt: 2 },
      { call: `${chat}#1`, callNumber: 1, attempt: 3 },
      { call: `${chat}#2`, callNumber: 2, attempt: 1 },
      { call: `${chat}#2`, callNumber: 2, attempt: 2 },
    ]);
  });

  it('takes explicit x-faultline headers over everything, and treats requests with nothing in common as new calls', () => {
    const t = new CallTracker();
    expect(t.place('op', { 'x-faultline-call': 'c1', 'x-faultline-attempt': '4', 'idempotency-key': 'k' })).toEqual({ call: 'op#1', callNumber: 1, attempt: 4 });
    expect(t.place('op', {})).toEqual({ call: 'op#2', callNumber: 2, attempt: 1 });
    expect(t.place('op', {})).toEqual({ call: 'op#3', callNumber: 3, attempt: 1 });
  });
});
