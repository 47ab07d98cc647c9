import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, RealClock, realSleep, wallDeadline } from './RealClock.js';

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('RealClock: waits longer than Node timers allow', () => {
  it('a timer, a deadline or a sleep over 2^31-1 ms does not fire at once (Node would, with a TimeoutOverflowWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): number => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: MAX_TIMER_MS + 1, max: Number.MAX_SAFE_INTEGER }), async (ms) => {
          const clock = new RealClock();
          const fired: string[] = [];
          const handle = clock.setTimer(ms, () => fired.push('timer'));
          const cancel = wallDeadline(ms, () => fired.push('deadline'));
          void realSleep(ms).then(() => fired.push('sleep'));
          await tick(15);
          clock.clearTimer(handle);
          cancel();
          expect(fired).toEqual([]);
        }),
        { numRuns: 5, seed: 43 },
      );
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('a short timer still fires, and a cleared one does not', async () => {
    const clock = new RealClock();
    const fired: number[] = [];
    clock.setTimer(1, () => fired.push(1));
    clock.clearTimer(clock.setTimer(2, () => fired.push(2)));
    await tick(20);
    expect(fired).toEqual([1]);
  });
});
