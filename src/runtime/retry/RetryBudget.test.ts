import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../core/index.js';
import { Deadline } from './Deadline.js';
import { RetryBudget } from './RetryBudget.js';

describe('RetryBudget', () => {
  it('hands out exactly its limit', () => {
    const b = new RetryBudget(2);
    expect([b.tryTake(), b.tryTake(), b.tryTake()]).toEqual([true, true, false]);
    expect([b.remaining, b.used]).toEqual([0, 2]);
  });

  it('a null budget never runs out', () => {
    const b = new RetryBudget(null);
    for (let i = 0; i < 100; i++) expect(b.tryTake()).toBe(true);
    expect(b.remaining).toBe(Infinity);
  });

  it('a zero budget allows no retry', () => {
    expect(new RetryBudget(0).tryTake()).toBe(false);
  });
});

describe('Deadline', () => {
  it('counts from the task start on the clock', async () => {
    const clock = new VirtualClock(1_000);
    const d = new Deadline(clock, 500, 2_000);
    expect([d.atMs, d.remainingMs(), d.allowsWait(1_400), d.allowsWait(1_500)]).toEqual([2_500, 1_500, true, false]);
    await clock.run(() => clock.sleep(1_500));
    expect([d.expired(), d.remainingMs()]).toEqual([true, 0]);
    expect(new Deadline(clock, 0, null).allowsWait(1e12)).toBe(true);
  });
});
