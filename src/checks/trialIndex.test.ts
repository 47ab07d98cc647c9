import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { TrialBuilder } from './testing.js';
import { TrialIndex } from './trialIndex.js';
import type { HistoryEvent } from '../core/index.js';

/** One call with two attempts, each delivered and answered, and its outcome. */
function record() {
  const t = new TrialBuilder();
  t.call('create_order', { clientReference: 'ref-1' });
  for (let n = 1; n <= 2; n++) {
    t.add({ type: 'attempt', call: 'call-1', attempt: n, tool: 'create_order', purpose: 'call', request: `req-${n}` });
    t.add({ type: 'delivery', request: `req-${n}`, tool: 'create_order', copy: 0, call: 'call-1', attempt: n });
    t.advance(100);
  }
  t.add({ type: 'outcome', call: 'call-1', tool: 'create_order', result: 'ok', attempts: 2 });
  return t.build({ end: { kind: 'agent_ended', outcome: 'completed' } });
}

describe('TrialIndex', () => {
  it('is one per record, shared by every checker that asks', () => {
    const r = record();
    expect(TrialIndex.of(r)).toBe(TrialIndex.of(r));
  });

  it('hands out frozen lists: one checker cannot change what the next one reads', () => {
    const index = TrialIndex.of(record());
    const shared = [
      index.eventsOf('attempt'),
      index.calls,
      index.attemptsOf('call-1'),
      index.callAttemptsOf('call-1'),
      index.deliveriesOf('req-1'),
      index.outcomesOf('call-1'),
      index.attemptsOf('no-such-call'),
    ];
    for (const list of shared) expect(Object.isFrozen(list)).toBe(true);
    expect(() => (index.eventsOf('attempt') as unknown[]).pop()).toThrow(TypeError);
    expect(index.eventsOf('attempt')).toHaveLength(2);
  });

  test.prop([
    fc.array(
      fc.record({
        service: fc.constantFrom('orders', 'jobs', 'a:b', 'a'),
        key: fc.constantFrom('x', 'y', 'b:x', 'x:y'),
      }),
      { maxLength: 20 },
    ),
    fc.array(fc.constantFrom('orders:x', 'jobs:y', 'a:b:x', 'a:b:x:y', 'orders', ':x', 'orders:z'), { maxLength: 6 }),
  ])(
    "lists a subject's effects as a filter of the ledger by the subject's service and key does, frozen",
    (commits, subjects) => {
      const b = new TrialBuilder();
      for (const c of commits) b.commit({ service: c.service, effect: 'created', key: c.key }, b.nextRequest());
      const r = b.build();
      const index = TrialIndex.of(r);
      for (const subject of subjects) {
        const colon = subject.indexOf(':');
        // The definition: the subject split at its first colon, every ledger effect of that service and key, in commit order.
        const expected =
          colon <= 0
            ? []
            : index.ledger.filter((e) => e.service === subject.slice(0, colon) && e.key === subject.slice(colon + 1));
        const got = index.effectsOfSubject(subject);
        expect(got).toEqual(expected);
        expect(Object.isFrozen(got)).toBe(true);
      }
    },
  );

  test.prop([
    fc.array(
      fc.record({
        kind: fc.constantFrom('response', 'delivery', 'attempt', 'effect'),
        request: fc.constantFrom('req-1', 'req-2', 'req-3'),
        copy: fc.integer({ min: 0, max: 2 }),
      }),
      { maxLength: 20 },
    ),
  ])(
    'counts the load per request as a pass over every event did (responses, and delivery copies past the first)',
    (steps) => {
      const events = steps.map(
        (s, seq) =>
          ({
            seq,
            t: 0,
            type: s.kind,
            request: s.request,
            tool: 't',
            copy: s.copy,
            call: 'call-1',
            attempt: 1,
            purpose: 'call',
          }) as unknown as HistoryEvent,
      );
      // The definition, in one pass over the history as requestLoad made it.
      const expected = new Map<string, number>();
      for (const e of events)
        if (e.type === 'response' || (e.type === 'delivery' && e.copy > 0))
          expected.set(e.request, (expected.get(e.request) ?? 0) + 1);
      const got = new TrialIndex(events, []).load;
      expect([...got].sort()).toEqual([...expected].sort());
    },
  );
});
