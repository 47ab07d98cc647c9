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

describe('canonicalJson', () => {
  it('sorts keys at every depth so equal values give equal text', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });
});
