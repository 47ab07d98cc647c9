import { describe, expect, it } from 'vitest';
import { goalState, partialDiff } from './goalState.js';
import { expectations, TrialBuilder } from './testing.js';

const order = { service: 'orders', effect: 'order.created', key: 'ref-1' };

function placedOrder(): TrialBuilder {
  const b = new TrialBuilder();
  b.turn();
  b.call('create_order', { clientReference: 'ref-1' }).attempt({ key: 'k1', commit: order });
  b.turn('final').agentEnd('completed', [{ subject: 'orders:ref-1', status: 'succeeded' }]);
  return b;
}

describe('partialDiff', () => {
  it('compares only the listed keys of objects, recursively', () => {
    expect(partialDiff({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toEqual([]);
  });

  it('reports each differing or missing path with expected and actual', () => {
    expect(
      partialDiff(
        { orders: { 'ref-1': { status: 'created' }, 'a.b': 1 } },
        { orders: { 'ref-1': { status: 'pending' } } },
      ),
    ).toEqual([
      { path: 'orders.ref-1.status', expected: 'created', actual: 'pending' },
      { path: 'orders["a.b"]', expected: 1, actual: undefined },
    ]);
  });

  it('requires arrays to be equal, not merely to contain the expected items', () => {
    expect(partialDiff({ items: [1, 2] }, { items: [1, 2, 3] })).toEqual([
      { path: 'items', expected: [1, 2], actual: [1, 2, 3] },
    ]);
    expect(partialDiff({ items: [{ a: 1, b: 2 }] }, { items: [{ b: 2, a: 1 }] })).toEqual([]);
  });

  it('reports an object expected where a scalar is', () => {
    expect(partialDiff({ a: { b: 1 } }, { a: 5 })).toEqual([{ path: 'a', expected: { b: 1 }, actual: 5 }]);
  });
});

describe('goalState', () => {
  const services = { orders: { 'ref-1': { status: 'created', amount: 10 } } };

  it('passes when state, effect counts and outcome all match', () => {
    const record = placedOrder().build({ services });
    const verdict = goalState.check(
      record,
      expectations({
        goal: { state: { orders: { 'ref-1': { status: 'created' } } }, effects: { 'order.created': 1 } },
      }),
    );
    expect(verdict).toEqual({ valid: true });
  });

  it('fails with a readable diff of the state', () => {
    const record = placedOrder().build({ services });
    const verdict = goalState.check(
      record,
      expectations({ goal: { state: { orders: { 'ref-1': { status: 'paid' }, 'ref-2': { status: 'created' } } } } }),
    );
    expect(verdict).toEqual({
      valid: false,
      message:
        'orders.ref-1.status is "created", expected "paid"; orders.ref-2 is missing, expected {"status":"created"}',
      evidence: [
        { path: 'orders.ref-1.status', expected: 'paid', actual: 'created' },
        { path: 'orders.ref-2', expected: { status: 'created' }, actual: undefined },
      ],
    });
  });

  it('fails when an effect happened more often than expected, naming the effects', () => {
    const b = new TrialBuilder();
    const c = b.call('create_order', { clientReference: 'ref-1' });
    c.attempt({ key: 'k1', commit: order, error: 'timeout' });
    c.attempt({ key: 'k2', commit: order });
    b.agentEnd('completed');
    const verdict = goalState.check(
      b.build(),
      expectations({ goal: { effects: { 'order.created': 1, 'email.sent': 1 } } }),
    );
    expect(verdict).toEqual({
      valid: false,
      message:
        'order.created happened 2 times, expected 1 (effects #0, #1); email.sent happened 0 times, expected 1 (effects none)',
      evidence: [
        {
          effect: 'order.created',
          expected: 1,
          actual: 2,
          effects: [
            { seq: 0, key: 'ref-1', request: 'req-1' },
            { seq: 1, key: 'ref-1', request: 'req-2' },
          ],
        },
        { effect: 'email.sent', expected: 1, actual: 0, effects: [] },
      ],
    });
  });

  it("shows the last lines of a failed agent's own message (a command agent's stderr), bounded", () => {
    const stderr = Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(i === 39 ? 400 : 10)}`).join('\n');
    const record = new TrialBuilder()
      .agentEnd('failed', [], `exited with code 3 and wrote no FAULTLINE_RESULT; stderr: ${stderr}`)
      .build();
    const verdict = goalState.check(record, expectations());
    const message = verdict.valid === false ? verdict.message : '';
    expect(message).toMatch(/^the agent ended with outcome failed, expected completed; the agent said: "…x+"$/);
    expect(message.length).toBeLessThan(420);
    const short = new TrialBuilder()
      .agentEnd('failed', [], 'exited with code 3 and wrote no FAULTLINE_RESULT; stderr: boom\nTraceback: KeyError')
      .build();
    const said = goalState.check(short, expectations());
    expect(said.valid === false && said.message).toContain(
      'the agent said: "exited with code 3 and wrote no FAULTLINE_RESULT; stderr: boom\\nTraceback: KeyError"',
    );
    expect(goalState.check(new TrialBuilder().agentEnd('failed', [], '').build(), expectations())).toMatchObject({
      message: 'the agent ended with outcome failed, expected completed',
    });
  });

  it('fails an outcome outside the accepted ones, and accepts the ones the goal lists', () => {
    const b = new TrialBuilder();
    b.agentEnd('handoff');
    const record = b.build();
    expect(goalState.check(record, expectations())).toEqual({
      valid: false,
      message: 'the agent ended with outcome handoff, expected completed; the agent said: "done"',
      evidence: [{ outcome: 'handoff', expected: ['completed'], seq: 0, t: 0 }],
    });
    expect(goalState.check(record, expectations({ goal: { outcome: ['completed', 'handoff'] } }))).toEqual({
      valid: true,
    });
  });

  it('fails a trial whose agent crashed or hung, whatever the state', () => {
    const crashed = new TrialBuilder().build({ end: { kind: 'crashed', message: 'model threw: boom' } });
    const verdict = goalState.check(crashed, expectations());
    expect(verdict).toMatchObject({ valid: false, message: 'the agent crashed before finishing: model threw: boom' });

    const hung = new TrialBuilder().advance(500).build();
    expect(goalState.check(hung, expectations())).toMatchObject({
      valid: false,
      message: 'the agent hung at t=500ms and never finished',
    });
  });
});
