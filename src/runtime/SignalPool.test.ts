import { fc, test } from '@fast-check/vitest';
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortRelay } from '../core/AbortRelay.js';
import { raceAbort } from '../faults/abort.js';
import { SignalPool } from './SignalPool.js';

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
  it('reuses one whose listener was added and removed again, and drops one with an onabort handler', () => {
    const pool = new SignalPool();
    const c = pool.take();
    const listener = (): void => {};
    c.signal.addEventListener('abort', listener);
    c.signal.removeEventListener('abort', listener);
    pool.give(c);
    expect(pool.take()).toBe(c);
    c.signal.onabort = () => {};
    pool.give(c);
    expect(pool.take()).not.toBe(c);
  });

  /** What a send may do to its signal before giving it back. */
  const step = fc.constantFrom('add', 'remove', 'race', 'settle', 'onabort', 'unset', 'abort', 'give');
  test.prop([fc.array(step, { maxLength: 40 })])(
    'takes back exactly the controllers the listener count says are clean (the check it replaced)',
    async (steps) => {
      const pool = new SignalPool();
      let c = pool.take();
      const listener = (): void => {};
      let settle: (() => void) | undefined;
      for (const s of steps) {
        switch (s) {
          case 'add':
            c.signal.addEventListener('abort', listener);
            break;
          case 'remove':
            c.signal.removeEventListener('abort', listener);
            break;
          case 'race':
            if (AbortRelay.of(c.signal)?.idle === true && !c.signal.aborted) {
              const work = new Promise<void>((resolve) => (settle = resolve));
              raceAbort(work, c.signal).catch(() => undefined);
            }
            break;
          case 'settle':
            settle?.();
            settle = undefined;
            await Promise.resolve();
            await Promise.resolve();
            break;
          case 'onabort':
            c.signal.onabort = () => {};
            break;
          case 'unset':
            c.signal.onabort = null;
            break;
          case 'abort':
            c.abort(new Error('timeout'));
            break;
          case 'give': {
            const clean =
              !c.signal.aborted &&
              AbortRelay.of(c.signal)?.idle === true &&
              getEventListeners(c.signal, 'abort').length === 1;
            pool.give(c);
            const next = pool.take();
            expect(next === c).toBe(clean);
            c = next;
            settle = undefined;
          }
        }
      }
    },
  );
});

describe('raceAbort on a relayed signal', () => {
  it('rejects with the reason at the point of the dispatch where its listener would have run, before listeners added later', async () => {
    const c = new SignalPool().take();
    const order: string[] = [];
    const raced = raceAbort(new Promise(() => {}), c.signal).catch((e: unknown) =>
      order.push(`race ${(e as Error).message}`),
    );
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
