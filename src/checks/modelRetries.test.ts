import { describe, expect, it } from 'vitest';
import { History, VirtualClock, type ErrorKind, type HistoryEvent } from '../core/index.js';
import { modelCallLoads, modelRetries } from './modelRetries.js';
import type { Expectations, TrialRecord } from './record.js';

const CHAT = 'model:openai.chat.completions';

/** A model call's requests as the HTTP adapter records them: each answered `ok` or with an error kind. */
function history(answers: readonly (ErrorKind | 'ok')[], call = `${CHAT}#1`): HistoryEvent[] {
  const clock = new VirtualClock(0);
  const h = new History(clock);
  answers.forEach((answer, i) => {
    const request = `http-${i + 1}`;
    const ids = { request, call, attempt: i + 1 };
    h.record({
      type: 'response',
      tool: CHAT,
      result: answer === 'ok' ? 'ok' : 'error',
      status: answer === 'ok' ? 200 : 429,
      ...ids,
    });
    if (answer !== 'ok')
      h.record({
        type: 'model_error',
        error: { kind: answer, message: answer, retryable: answer === 'rate_limit' },
        ...ids,
      });
  });
  return [...h.events];
}

const record = (events: HistoryEvent[]): TrialRecord => ({
  scenario: 's',
  config: 'c',
  trialIndex: 0,
  seed: 1,
  history: events,
  snapshot: { services: {}, ledger: [], hash: '' },
  end: { kind: 'agent_ended', outcome: 'completed' },
});

const expect_ = (maxDeliveriesPerOperation?: number): Expectations => ({
  secrets: [],
  budget: {
    maxTurns: 1,
    maxToolCalls: 1,
    maxAttemptsPerCall: 1,
    deadlineMs: 1,
    ...(maxDeliveriesPerOperation === undefined ? {} : { maxDeliveriesPerOperation }),
  },
});

describe('modelCallLoads', () => {
  it('counts every request of one logical model call, and ignores tool traffic', () => {
    const events = [
      ...history(['rate_limit', 'rate_limit', 'ok']),
      { seq: 99, t: 0, type: 'response', request: 'http-9', tool: 'create_order', result: 'ok' } as const,
    ];
    expect(modelCallLoads(events).map(({ call, requests, requestIds }) => ({ call, requests, requestIds }))).toEqual([
      { call: `${CHAT}#1`, requests: 3, requestIds: ['http-1', 'http-2', 'http-3'] },
    ]);
  });
});

describe('modelRetries', () => {
  it('passes retried rate limits within the limit', () => {
    expect(modelRetries.check(record(history(['rate_limit', 'ok'])), expect_(3))).toEqual({ valid: true });
  });

  it('flags a resend after an exhausted quota (R5)', () => {
    const verdict = modelRetries.check(record(history(['quota_exceeded', 'quota_exceeded'])), expect_());
    expect(verdict).toMatchObject({ valid: false, evidence: [{ rule: 'R5', resent: ['http-2'] }] });
  });

  it('flags more requests per model call than the deliveries-per-operation limit (R10)', () => {
    const verdict = modelRetries.check(record(history(['unavailable', 'unavailable', 'unavailable'])), expect_(2));
    expect(verdict).toMatchObject({ valid: false, evidence: [{ rule: 'R10', requests: 3, limit: 2 }] });
  });
});
