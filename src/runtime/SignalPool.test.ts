import { describe, expect, it } from 'vitest';
import { AbortRelay } from '../core/AbortRelay.js';
import { raceAbort } from '../faults/abort.js';
import { MAX_SPARE_SIGNALS, SignalPool } from './SignalPool.js';

describe('SignalPool', () => {
  it('reuses a controller whose signal never fired and holds nothing but its relay', async () => {
    const pool = new SignalPool();
    const c = pool.take();
    expect(AbortRelay.of(c.signal)?.idle).toBe(true);
    await raceAbort(Promise.resolve(1), c.signal);
    pool.give(c);
    expect(pool.take()).toBe(c);
  });

  it('drops one that aborted, holds a hook, or kept a listener of its own', () => {
    const pool = new SignalPool();
    const aborted = pool.take();
    aborted.abort(new Error('gone'));
    pool.give(aborted);
    const held = pool.take();
    void raceAbort(new Promise(() => {}), held.signal);
    pool.give(held);
    const listened = pool.take();
    listened.signal.addEventListener('abort', () => {});
    pool.give(listened);
    const next = pool.take();
    expect([aborted, held, listened]).not.toContain(next);
  });
});

describe('SignalPool across executors', () => {
  it("gives one pool's clean controller to the next pool (a trial's executor to the next trial's)", async () => {
    const first = new SignalPool();
    const c = first.take();
    await raceAbort(Promise.resolve(1), c.signal);
    first.give(c);
    expect(new SignalPool().take()).toBe(c);
  });

  it('shares at most MAX_SPARE_SIGNALS spare controllers; a pool keeps the rest for itself, and none is handed out twice', () => {
    const pool = new SignalPool();
    const taken = Array.from({ length: MAX_SPARE_SIGNALS + 10 }, () => pool.take());
    expect(new Set(taken).size).toBe(taken.length);
    for (const c of taken) pool.give(c);
    // Another pool (the next trial's) finds the shared ones only.
    const other = new SignalPool();
    const shared = Array.from({ length: MAX_SPARE_SIGNALS + 10 }, () => other.take());
    expect(new Set(shared).size).toBe(shared.length);
    expect(shared.filter((c) => taken.includes(c))).toHaveLength(MAX_SPARE_SIGNALS);
    // The giver kept the ten the shared list had no room for: a crowd's agent reuses its own.
    const own = Array.from({ length: 10 }, () => pool.take());
    expect(own.every((c) => taken.includes(c) && !shared.includes(c))).toBe(true);
    for (const c of [...shared, ...own]) other.give(c);
  });
});

describe('raceAbort on a relayed signal', () => {
  it('rejects with the reason at the point of the dispatch where its listener would have run, before listeners added later', async () => {
    const c = new SignalPool().take();
    const order: string[] = [];
    const raced = raceAbort(new Promise(() => {}), c.signal).catch((e: unknown) => order.push(`race ${(e as Error).message}`));
    const later = new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve()));
    void later.then(() => order.push('later'));
    c.abort(new Error('timeout'));
    await raced;
    await later;
    expect(order).toEqual(['race timeout', 'later']);
  });

  it('settles with the work and lets go of the hook; a second race on the same signal holds it again', async () => {
    const c = new SignalPool().take();
    const relay = AbortRelay.of(c.signal)!;
    await expect(raceAbort(Promise.reject(new Error('no')), c.signal)).rejects.toThrow('no');
    expect(relay.idle).toBe(true);
    const pending = raceAbort(new Promise(() => {}), c.signal);
    expect(relay.idle).toBe(false);
    c.abort(new Error('late'));
    await expect(pending).rejects.toThrow('late');
    expect(relay.idle).toBe(true);
  });
});
