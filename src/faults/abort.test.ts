import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { AbortRelay } from '../core/AbortRelay.js';
import { VirtualClock, type Clock } from '../core/index.js';
import { SignalPool } from '../runtime/SignalPool.js';
import { raceAbort, sleepRelayed } from './abort.js';
import { besideChains } from './microtaskOrder.testkit.js';

type Sleep = (clock: Clock, ms: number, signal: AbortSignal) => Promise<void>;

/**
 * A send as the wire makes it, on `clock`: the race starts, then (a hop later) the answer's leg
 * is slept; a timeout timer set before it aborts the signal at `abortAt`. Everything that
 * happens is logged with its virtual time, with what the clock still holds at the end.
 */
async function send(
  controller: AbortController,
  sleep: Sleep,
  ms: number,
  abortAt: number | undefined,
): Promise<{ log: string[]; pending: number; at: number }> {
  const clock = new VirtualClock();
  const log: string[] = [];
  const signal = controller.signal;
  const run = await clock.run(async () => {
    if (abortAt !== undefined) clock.setTimer(abortAt, () => controller.abort(new Error('timeout')));
    const work = (async () => {
      await Promise.resolve();
      log.push(`sleep ${clock.now()}`);
      const leg = sleep(clock, ms, signal);
      // One hop from the leg's settling, as the race's reaction is one hop from its own: the order of the two shows.
      leg.catch((e: unknown) => log.push(`leg ${(e as Error).message} ${clock.now()}`));
      await leg;
      log.push(`woke ${clock.now()}`);
      return 'answer';
    })();
    work.catch((e: unknown) => log.push(`work ${(e as Error).message} ${clock.now()}`));
    const raced = raceAbort(work, signal).then(
      (v) => log.push(`race ${v} ${clock.now()}`),
      (e: unknown) => log.push(`race ${(e as Error).message} ${clock.now()}`),
    );
    // Two hops of slack, as the sender's own reactions would take, then the sender is done.
    void Promise.resolve().then(() => log.push('tick'));
    await raced;
    await work.catch(() => undefined);
  });
  return { log, pending: clock.pending, at: run.at };
}

const asSleepOn: Sleep = (clock, ms, signal) => clock.sleep(ms, signal);

describe('sleepRelayed', () => {
  test.prop([fc.integer({ min: 0, max: 50 }), fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined })])(
    "on a reused signal, logs, times and leftover timers match a listener's sleep on a fresh signal",
    async (ms, abortAt) => {
      const pooled = new SignalPool().take();
      const relayed = await send(pooled, sleepRelayed, ms, abortAt);
      const reference = await send(new AbortController(), asSleepOn, ms, abortAt);
      expect(relayed).toEqual(reference);
      // The leg let go of its hook either way: the signal could be reused (unless it aborted).
      expect(AbortRelay.of(pooled.signal)?.idle).toBe(true);
    },
  );

  it('holds the relay\u2019s second hook while it sleeps, and none after', async () => {
    const clock = new VirtualClock();
    const c = new SignalPool().take();
    const relay = AbortRelay.of(c.signal)!;
    await clock.run(async () => {
      const raced = raceAbort(new Promise<void>(() => {}), c.signal);
      raced.catch(() => undefined);
      const leg = sleepRelayed(clock, 5, c.signal);
      expect(relay.takesNext).toBe(false);
      await leg;
      expect(relay.takesNext).toBe(true);
      c.abort(new Error('gone'));
      await expect(raced).rejects.toThrow('gone');
    });
    expect(relay.idle).toBe(true);
  });

  it('sleeps as clock.sleep does on a signal without a relay, or one whose race holds no hook', async () => {
    const clock = new VirtualClock();
    const plain = new AbortController();
    const idle = new SignalPool().take();
    const run = await clock.run(async () => {
      await sleepRelayed(clock, 3, plain.signal);
      await sleepRelayed(clock, 4, idle.signal);
      plain.abort(new Error('late'));
      await expect(sleepRelayed(clock, 1, plain.signal)).rejects.toThrow('late');
    });
    expect(run.at).toBe(7);
    expect(AbortRelay.of(idle.signal)?.idle).toBe(true);
  });
});

describe('raceAbort', () => {
  /**
   * A race of work that settles (or fails) after `hops` awaits, against a signal aborted after `abortAfter` hops of a
   * chain of its own (never if undefined), beside reaction chains: the order everything happened in.
   */
  async function raceLog(
    controller: AbortController,
    hops: number,
    fails: boolean,
    abortAfter: number | undefined,
    chains: readonly number[],
  ): Promise<string[]> {
    const log: string[] = [];
    const work = (async () => {
      for (let k = 0; k < hops; k++) await Promise.resolve();
      log.push('work settles');
      if (fails) throw new Error('work failed');
      return 'answer';
    })();
    work.catch(() => undefined);
    if (abortAfter !== undefined) {
      let p = Promise.resolve();
      for (let k = 0; k < abortAfter; k++) p = p.then(() => undefined);
      void p.then(() => {
        log.push('abort');
        controller.abort(new Error('aborted'));
      });
    }
    const raced = raceAbort(work, controller.signal).then(
      (v) => void log.push(`race ${v}`),
      (e: unknown) => void log.push(`race ${(e as Error).message}`),
    );
    return besideChains(log, chains, [raced]);
  }

  test.prop([
    fc.nat({ max: 4 }),
    fc.boolean(),
    fc.option(fc.nat({ max: 6 }), { nil: undefined }),
    fc.array(fc.nat({ max: 8 }), { maxLength: 3 }),
  ])(
    "on a reused signal (the relay's hook) settles at the same point of the microtask queue as with a listener on a fresh signal",
    async (hops, fails, abortAfter, chains) => {
      const pooled = new SignalPool().take();
      const relayed = await raceLog(pooled, hops, fails, abortAfter, chains);
      expect(relayed).toEqual(await raceLog(new AbortController(), hops, fails, abortAfter, chains));
      expect(AbortRelay.of(pooled.signal)?.idle).toBe(true);
    },
  );
});
