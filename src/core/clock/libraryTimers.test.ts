import { describe, expect, it } from 'vitest';
import { installSeededMathRandom, Rng } from '../rng.js';
import { installLibraryTimers } from './libraryTimers.js';
import { VirtualClock } from './VirtualClock.js';

describe('installLibraryTimers', () => {
  it('runs global timers, Date.now and performance.now on the clock, and restores them', async () => {
    const realSetTimeout = globalThis.setTimeout;
    const realDateNow = Date.now;
    const clock = new VirtualClock(5_000);
    const timers = installLibraryTimers(clock);
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
  });
});

describe('installSeededMathRandom', () => {
  it('draws Math.random from the rng while installed, the same for the same seed', () => {
    const real = Math.random;
    const draw = (seed: number): number[] => {
      const restore = installSeededMathRandom(new Rng(seed));
      try {
        return [Math.random(), Math.random(), Math.random()];
      } finally {
        restore();
      }
    };
    expect(draw(3)).toEqual(draw(3));
    expect(draw(3)).not.toEqual(draw(4));
    expect(draw(3)).toEqual([0, 1, 2].map(((r) => () => r.next())(new Rng(3))));
    expect(Math.random).toBe(real);
  });
});
