import { describe, expect, it } from 'vitest';
import { measureRecovery, recovery } from './recovery.js';
import { expectations, TrialBuilder } from './testing.js';
import type { Expectations } from './record.js';

const sent = { service: 'email', effect: 'email.sent', key: 'notice-1' };
const expect5s = (over: Partial<NonNullable<Expectations['recovery']>> = {}): Expectations =>
  expectations({
    goal: { effects: { 'email.sent': 1 } },
    heal: { atMs: 3_000 },
    recovery: { withinMs: 5_000, ...over },
  });

/** An outage until t=3s: attempts at 0 and 2s refused (429), then a wait of `lastWaitMs` from t=2s and a send that succeeds. */
function throughOutage(lastWaitMs: number, retryCalls = 0): TrialBuilder {
  const b = new TrialBuilder();
  b.turn();
  const c = b.call('send_email', { messageId: 'notice-1' });
  c.attempt({ key: 'k', error: { kind: 'rate_limit', retryAfterMs: 2_000 } });
  b.add({ type: 'retry_wait', call: c.id, attempt: 1, ms: 2_000, reason: 'retry_after' });
  b.advance(2_000);
  c.attempt({ key: 'k', error: { kind: 'rate_limit', retryAfterMs: 2_000 } });
  b.add({ type: 'retry_wait', call: c.id, attempt: 2, ms: lastWaitMs, reason: 'backoff' });
  b.advance(1_000);
  b.add({ type: 'heal', rules: 1 });
  b.advance(lastWaitMs - 1_000);
  for (let i = 0; i < retryCalls; i++) b.call('get_email', { messageId: 'notice-1' }, 'read').attempt();
  c.attempt({ key: 'k', commit: sent });
  c.outcome('ok');
  b.turn('final').agentEnd('completed');
  return b;
}

describe('measureRecovery', () => {
  it('is undefined without a recovery expectation', () => {
    expect(measureRecovery(throughOutage(2_000).build(), expectations())).toBeUndefined();
  });

  it("measures the time from the heal to the agents' end, the calls after it, and the wait that spanned it", () => {
    const m = measureRecovery(throughOutage(2_000).build(), expect5s())!;
    expect(m).toMatchObject({
      healAtMs: 3_000,
      healed: true,
      goalReached: true,
      reachedAtMs: 4_000,
      timeToRecoverMs: 1_000,
      callsAfter: [],
    });
    expect(m.staleWaits).toEqual([
      {
        waitMs: 1_000,
        until: 4_000,
        ended: 'request',
        on: { seq: expect.any(Number) as number, t: 2_000, what: 'call-1 backoff wait of 2000ms' },
      },
    ]);
  });

  it('counts a trial that reached its goal before the heal as recovered at once, and one that never did as null', () => {
    const early = new TrialBuilder();
    early.turn();
    early.call('send_email', { messageId: 'notice-1' }).attempt({ commit: sent });
    early.turn('final').agentEnd('completed');
    expect(measureRecovery(early.build(), expect5s())).toMatchObject({
      healed: false,
      goalReached: true,
      timeToRecoverMs: 0,
      staleWaits: [],
    });

    const gaveUp = new TrialBuilder();
    gaveUp.turn();
    gaveUp.call('send_email', { messageId: 'notice-1' }).attempt({ error: 'rate_limit' });
    gaveUp.turn('final').agentEnd('failed');
    expect(measureRecovery(gaveUp.build(), expect5s())).toMatchObject({
      healed: false,
      goalReached: false,
      timeToRecoverMs: null,
    });
  });
});

describe('recovery', () => {
  it('passes a prompt recovery, and passes any scenario that expects none', () => {
    expect(recovery.check(throughOutage(2_000).build(), expect5s({ maxCallsAfter: 0, maxStaleWaitMs: 1_000 }))).toEqual(
      { valid: true },
    );
    expect(recovery.check(throughOutage(60_000).build(), expectations())).toEqual({ valid: true });
  });

  it('fails a goal reached too long after the heal, naming when', () => {
    const v = recovery.check(throughOutage(30_000).build(), expect5s({ maxStaleWaitMs: 60_000 }));
    expect(v).toMatchObject({
      valid: false,
      message: 'the goal was reached at t=32000ms, 29000ms after the heal at t=3000ms; expected within 5000ms',
    });
  });

  it('fails a wait begun under the faults that outlived them, naming what it waited on', () => {
    const v = recovery.check(throughOutage(5_000).build(), expect5s({ maxStaleWaitMs: 2_500 }));
    expect(v.valid).toBe(false);
    expect(v.valid === false && v.message).toBe(
      'the agent was still waiting 4000ms after the heal at t=3000ms, waiting on a call-1 backoff wait ' +
        'of 5000ms from t=2000ms: its next request came at t=7000ms; expected at most 2500ms (a wait begun under the faults outlived them)',
    );
  });

  it('fails more calls after the heal than allowed, listing them', () => {
    const v = recovery.check(throughOutage(2_000, 2).build(), expect5s({ maxCallsAfter: 1 }));
    expect(v).toMatchObject({
      valid: false,
      message: '2 tool calls started after the heal at t=3000ms (call-2, call-3); expected at most 1',
    });
  });

  it("fails a goal never reached, with goal-state's reason", () => {
    const b = new TrialBuilder();
    b.turn();
    b.call('send_email', { messageId: 'notice-1' }).attempt({ error: 'rate_limit' });
    b.turn('final').agentEnd('failed');
    const v = recovery.check(b.build(), expect5s());
    expect(v.valid === false && v.message).toMatch(
      /^the goal was never reached \(the trial ended at t=0ms, before the heal at t=3000ms\): email\.sent happened 0 times, expected 1/,
    );
  });
});
