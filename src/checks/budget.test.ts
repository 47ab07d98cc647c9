import { describe, expect, it } from 'vitest';
import { budget } from './budget.js';
import { expectations, TrialBuilder } from './testing.js';

const ex = expectations({ budget: { maxTurns: 2, maxToolCalls: 2, maxAttemptsPerCall: 3, deadlineMs: 1_000 } });

describe('budget', () => {
  it('passes a trial within every limit, counting only call attempts per call', () => {
    const b = new TrialBuilder();
    b.turn();
    const c = b.call('create_order', { clientReference: 'ref-1' });
    c.attempt({ key: 'k', error: 'timeout' });
    c.attempt({ key: 'k', error: 'timeout' });
    c.attempt({ key: 'k', purpose: 'status' });
    c.attempt({ key: 'k' });
    b.advance(1_000).turn('final').agentEnd('completed');
    expect(budget.check(b.build(), ex)).toEqual({ valid: true });
  });

  it('fails a call with too many attempts, naming its requests', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', { clientReference: 'ref-1' });
    for (let i = 0; i < 3; i++) c.attempt({ key: 'k', error: 'timeout', ms: 10 });
    c.attempt({ key: 'k' });
    b.agentEnd('completed');
    expect(budget.check(b.build(), ex)).toEqual({
      valid: false,
      message: 'call-1 (create_order) made 4 attempts, the limit is 3 (requests req-1, req-2, req-3, req-4)',
      evidence: [
        {
          call: 'call-1',
          tool: 'create_order',
          attempts: 4,
          limit: 3,
          requests: ['req-1', 'req-2', 'req-3', 'req-4'],
          lastAt: 30,
        },
      ],
    });
  });

  it('fails too many tool calls and turns, naming the ones over the limit', () => {
    const b = new TrialBuilder();
    for (let i = 0; i < 3; i++) {
      b.turn();
      b.call('get_order', { clientReference: `ref-${i}` }, 'read').attempt();
      b.advance(10);
    }
    b.agentEnd('completed');
    const verdict = budget.check(b.build(), ex);
    expect(verdict).toMatchObject({
      valid: false,
      message:
        'the agent made 3 tool calls, the limit is 2 (over the limit: call-3 get_order); the agent ' +
        'took 3 model turns, the limit is 2 (turn 3 at t=20ms was the first over)',
      evidence: [
        { toolCalls: 3, limit: 2, over: [{ call: 'call-3', tool: 'get_order', t: 20 }] },
        { turns: 3, limit: 2, firstOver: { turn: 3, t: 20 } },
      ],
    });
  });

  it('fails a trial whose last event is past the deadline', () => {
    const b = new TrialBuilder();
    b.advance(1_001).agentEnd('completed');
    expect(budget.check(b.build(), ex)).toEqual({
      valid: false,
      message: 'the trial ran until t=1001ms (event #0 agent_end), past its 1000ms deadline',
      evidence: [{ seq: 0, type: 'agent_end', t: 1_001, deadlineMs: 1_000 }],
    });
  });

  it('fails a trial stopped by a limit or hung', () => {
    const stopped = new TrialBuilder().build({ end: { kind: 'budget_exceeded', limit: 'turns', at: 400 } });
    expect(budget.check(stopped, ex)).toMatchObject({
      valid: false,
      message: 'the trial was stopped at t=400ms for exceeding its turns limit',
    });
    const hung = new TrialBuilder().build({ end: { kind: 'hung', at: 700 } });
    expect(budget.check(hung, ex)).toMatchObject({
      valid: false,
      message: 'the agent hung at t=700ms with nothing left to run',
    });
  });
});
