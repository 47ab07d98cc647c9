import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { installVirtualTimers, runWithVirtualTimers } from './globalTimers.js';
import { VirtualClock } from './VirtualClock.js';
import { Rng } from '../rng.js';

/** Every global the installer may swap, as it stands now. */
const globalsNow = () => ({
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  abortTimeout: AbortSignal.timeout,
  now: Date.now,
  random: Math.random,
  requestTimeout: Object.getOwnPropertyDescriptor(http.ClientRequest.prototype, 'setTimeout')?.value as unknown,
});

describe('installVirtualTimers', () => {
  it('runs setTimeout, setInterval and their clears on the clock', async () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    const run = await runWithVirtualTimers(clock, async () => {
      await new Promise<void>((resolve) => setTimeout(() => resolve(), 30_000));
      seen.push(`timeout@${clock.now()}`);
      const cleared = setTimeout(() => seen.push('never'), 10);
      clearTimeout(cleared);
      let ticks = 0;
      await new Promise<void>((resolve) => {
        const every = setInterval(() => {
          seen.push(`tick@${clock.now()}`);
          if (++ticks === 3) {
            clearInterval(every);
            resolve();
          }
        }, 1_000);
      });
      return clock.now();
    });
    expect(run).toEqual({ kind: 'settled', value: 33_000, at: 33_000 });
    expect(seen).toEqual(['timeout@30000', 'tick@31000', 'tick@32000', 'tick@33000']);
    expect(clock.pending).toBe(0);
  });

  it('aborts AbortSignal.timeout at the virtual deadline with a TimeoutError, and reads Date.now from the clock', async () => {
    const clock = new VirtualClock(1_000_000);
    const run = await runWithVirtualTimers(clock, async () => {
      const signal = AbortSignal.timeout(30_000);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      const reason = signal.reason as DOMException;
      return { name: reason.name, now: Date.now() };
    });
    expect(run).toEqual({ kind: 'settled', value: { name: 'TimeoutError', now: 1_030_000 }, at: 1_030_000 });
  });

  it('keeps a zero-delay setTimeout real but lets no virtual time pass before it fires', async () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    await runWithVirtualTimers(clock, async () => {
      const virtual = clock.sleep(1).then(() => seen.push(`sleep@${clock.now()}`));
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      seen.push(`zero@${clock.now()}`);
      await virtual;
    });
    expect(seen).toEqual(['zero@0', 'sleep@1']);
  });

  it('answers Math.random from the given source only when one is given', async () => {
    const clock = new VirtualClock(0);
    const fixed = { next: () => 0.25 };
    const run = await runWithVirtualTimers(clock, async () => [Math.random(), Math.random()], { random: fixed });
    expect(run).toEqual({ kind: 'settled', value: [0.25, 0.25], at: 0 });
    expect(Math.random()).not.toBe(0.25);
  });

  it('fires a node:http request timeout on the clock', async () => {
    const clock = new VirtualClock(0);
    const timers = installVirtualTimers(clock);
    try {
      const req = new http.ClientRequest({ host: '127.0.0.1', port: 9, createConnection: () => new net.Socket() });
      req.on('error', () => {});
      const run = await clock.run(
        () =>
          new Promise<number>((resolve) => {
            req.setTimeout(45_000, () => {
              resolve(clock.now());
              req.destroy();
            });
          }),
      );
      expect(run).toEqual({ kind: 'settled', value: 45_000, at: 45_000 });
    } finally {
      timers.uninstall();
    }
  });

  it('restores every global exactly, and a second uninstall changes nothing', () => {
    const before = globalsNow();
    const timers = installVirtualTimers(new VirtualClock(0), { random: { next: () => 0 } });
    expect(globalThis.setTimeout).not.toBe(before.setTimeout);
    expect(Date.now).not.toBe(before.now);
    timers.uninstall();
    timers.uninstall();
    expect(globalsNow()).toEqual(before);
  });
});

describe("installVirtualTimers in 'library' mode", () => {
  it('runs global timers, Date.now and performance.now on the clock, and restores them', async () => {
    const realSetTimeout = globalThis.setTimeout;
    const realDateNow = Date.now;
    const clock = new VirtualClock(5_000);
    const timers = installVirtualTimers(clock, { mode: 'library' });
    const seen: string[] = [];
    try {
      const run = await clock.run(async () => {
        const started = performance.now();
        const cancelled = setTimeout(() => seen.push('cancelled'), 10);
        clearTimeout(cancelled);
        await new Promise<void>((resolve) => setTimeout(() => resolve(), 60_000).unref());
        seen.push(`zero-later@${Date.now()}`);
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
        let ticks = 0;
        await new Promise<void>((resolve) => {
          const id = setInterval(() => {
            if (++ticks === 3) {
              clearInterval(id);
              resolve();
            }
          }, 100);
        });
        return performance.now() - started;
      });
      expect(run).toEqual({ kind: 'settled', value: 60_300, at: 65_300 });
      expect(seen).toEqual(['zero-later@65000']);
      expect(clock.pending).toBe(0);
    } finally {
      timers.uninstall();
    }
    expect(globalThis.setTimeout).toBe(realSetTimeout);
    expect(Date.now).toBe(realDateNow);
    expect(Date.now()).toBeGreaterThan(1_600_000_000_000);
    expect(Object.hasOwn(performance, 'now')).toBe(false);
  });

  it('puts a zero delay on the clock and leaves AbortSignal.timeout and sockets real', () => {
    const abortTimeout = AbortSignal.timeout;
    const requestTimeout = Object.getOwnPropertyDescriptor(http.ClientRequest.prototype, 'setTimeout')
      ?.value as unknown;
    for (const install of [(c: VirtualClock) => installVirtualTimers(c, { mode: 'library' })]) {
      const clock = new VirtualClock(0);
      const timers = install(clock);
      try {
        setTimeout(() => {}, 0);
        expect(clock.pending).toBe(1);
        expect(AbortSignal.timeout).toBe(abortTimeout);
        expect(Object.getOwnPropertyDescriptor(http.ClientRequest.prototype, 'setTimeout')?.value as unknown).toBe(
          requestTimeout,
        );
      } finally {
        timers.uninstall();
      }
    }
  });
});

describe("the random option: Math.random from the trial's rng", () => {
  it('draws Math.random from the rng while installed, the same for the same seed', () => {
    const real = Math.random;
    const draw = (seed: number): number[] => {
      const timers = installVirtualTimers(new VirtualClock(0), { mode: 'library', random: new Rng(seed) });
      const restore = (): void => timers.uninstall();
      try {
        return [Math.random(), Math.random(), Math.random()];
      } finally {
        restore();
      }
    };
    expect(draw(3)).toEqual(draw(3));
    expect(draw(3)).not.toEqual(draw(4));
    expect(draw(3)).toEqual(
      [0, 1, 2].map(
        (
          (r) => () =>
            r.next()
        )(new Rng(3)),
      ),
    );
    expect(Math.random).toBe(real);
  });

  it('with alive, what was scheduled fires only while it says so, and zero delays still release the clock', async () => {
    const clock = new VirtualClock(0);
    let alive = true;
    const fired: string[] = [];
    const run = await runWithVirtualTimers(
      clock,
      async () => {
        setTimeout(() => fired.push('timeout'), 10);
        setInterval(() => fired.push('interval'), 10);
        setTimeout(() => fired.push('zero'), 0);
        AbortSignal.timeout(10).addEventListener('abort', () => fired.push('abort'));
        await clock.sleep(5);
        alive = false;
        await clock.sleep(100);
      },
      { alive: () => alive },
    );
    expect(run.kind).toBe('settled');
    expect(fired).toEqual(['zero']);
    expect(clock.now()).toBe(105);
  });

  // An agent's restart installs its timers over the trial's, whose code the kill abandoned.
  it('installed over another whose code was abandoned: its own timers fire, zero delays too', async () => {
    const clock = new VirtualClock(0);
    let outerAlive = true;
    const fired: string[] = [];
    const run = await runWithVirtualTimers(
      clock,
      async () => {
        outerAlive = false;
        const inner = installVirtualTimers(clock, { alive: () => true });
        try {
          await new Promise<void>((resolve) => setTimeout(() => resolve(fired.push('zero') as never), 0));
          await new Promise<void>((resolve) => setTimeout(() => resolve(fired.push('ten') as never), 10));
        } finally {
          inner.uninstall();
        }
      },
      { alive: () => outerAlive },
    );
    expect(run.kind).toBe('settled');
    expect(fired).toEqual(['zero', 'ten']);
  });

  it('nested layers, alive or abandoned: a timer fires exactly when the layer it was set through is alive', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ alive: fc.boolean(), ms: fc.constantFrom(0, 1, 7) }), { minLength: 1, maxLength: 4 }),
        async (layers) => {
          const clock = new VirtualClock(0);
          const fired: number[] = [];
          const run = await clock.run(async () => {
            const installed = layers.map((layer, i) => {
              const timers = installVirtualTimers(clock, { alive: () => layer.alive });
              setTimeout(() => fired.push(i), layer.ms);
              return timers;
            });
            for (const timers of installed.reverse()) timers.uninstall();
            await clock.sleep(20);
          });
          expect(run.kind).toBe('settled');
          const expected = layers.flatMap((layer, i) => (layer.alive ? [i] : []));
          expect([...fired].sort((a, b) => a - b)).toEqual(expected);
        },
      ),
      { numRuns: 60, seed: 45 },
    );
  });
});
