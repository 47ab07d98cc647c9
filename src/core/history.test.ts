import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';
import { VirtualClock } from './clock/VirtualClock.js';
import { eventsOf, History } from './history.js';

describe('History', () => {
  it('stamps events with their sequence and the virtual time since the trial began', async () => {
    const clock = new VirtualClock(1_700_000_000_000);
    const h = new History(clock);
    await clock.run(async () => {
      h.record({ type: 'agent_wait', ms: 250 });
      await clock.sleep(250);
      h.record({ type: 'agent_end', outcome: 'completed', claims: [], message: 'done' });
    });
    expect(h.events).toEqual([
      { seq: 0, t: 0, type: 'agent_wait', ms: 250 },
      { seq: 1, t: 250, type: 'agent_end', outcome: 'completed', claims: [], message: 'done' },
    ]);
    expect(eventsOf(h.events, 'agent_end').map((e) => e.message)).toEqual(['done']);
  });
});

describe('History.stamp', () => {
  it('stamps the event in place, as record stamps its copy: same keys in the same order, marks first, listeners told', async () => {
    const clock = new VirtualClock(0);
    const stamped = new History(clock);
    const copied = new History(clock);
    const heard: number[] = [];
    stamped.onRecord((e) => heard.push(e.seq));
    for (const h of [stamped, copied]) h.markAt(100, { type: 'heal', rules: 1 });
    await clock.run(async () => {
      await clock.sleep(150);
      const event = { seq: -1, t: -1, type: 'agent_wait' as const, ms: 5 };
      expect(stamped.stamp(event)).toBe(event);
      copied.record({ type: 'agent_wait', ms: 5 });
    });
    expect(JSON.stringify(stamped.events)).toBe(JSON.stringify(copied.events));
    expect(stamped.events.map((e) => [e.seq, e.t, e.type])).toEqual([
      [0, 100, 'heal'],
      [1, 150, 'agent_wait'],
    ]);
    expect(heard).toEqual([0, 1]);
  });
});

describe('History.markAt', () => {
  it('records the mark at its instant, just before the first event at or after it', async () => {
    const clock = new VirtualClock(0);
    const h = new History(clock);
    h.markAt(300, { type: 'heal', rules: 2 });
    await clock.run(async () => {
      h.record({ type: 'agent_wait', ms: 1_000 });
      await clock.sleep(1_000);
      h.record({ type: 'agent_wait', ms: 0 });
    });
    expect(h.events.map((e) => [e.seq, e.t, e.type])).toEqual([
      [0, 0, 'agent_wait'],
      [1, 300, 'heal'],
      [2, 1_000, 'agent_wait'],
    ]);
  });

  it("a mark the trial never reaches is never recorded; one at an event's own instant comes first", async () => {
    const clock = new VirtualClock(0);
    const h = new History(clock);
    h.markAt(0, { type: 'heal', rules: 1 });
    h.markAt(5_000, { type: 'heal', rules: 1 });
    h.record({ type: 'agent_wait', ms: 0 });
    expect(h.events.map((e) => [e.t, e.type])).toEqual([
      [0, 'heal'],
      [0, 'agent_wait'],
    ]);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth so equal values give equal text', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });
});
