import { describe, expect, it } from 'vitest';
import { freeCores, projectedMs, workersWorthIt } from './workersWorthIt.js';
import { batchSize } from './runOnWorkers.js';

const quiet = { cores: 2, load: 0.3 };
const eight = { cores: 8, load: 0.5 };

describe('workersWorthIt', () => {
  it('keeps a run whose trials cost less than a worker start-up in process', () => {
    // The default run: 60 trials of about 1 ms.
    expect(workersWorthIt(1, 60, eight)).toBe(0);
    expect(workersWorthIt(1, 500, eight)).toBe(0);
  });

  it('keeps every run in process on 2 cores: a worker pair cannot beat the in-process run there', () => {
    expect(workersWorthIt(1, 6_000, quiet)).toBe(0);
    expect(workersWorthIt(1, 1_000_000, quiet)).toBe(0);
    expect(workersWorthIt(300, 40, quiet)).toBe(0);
  });

  it('puts a run of seconds of trials on as many workers as the free cores can run with their collectors', () => {
    expect(workersWorthIt(1, 6_000, eight)).toBeGreaterThan(1);
    expect(workersWorthIt(1, 100_000, eight)).toBe(6);
    expect(workersWorthIt(300, 40, eight)).toBeGreaterThan(1);
  });

  it('counts only the cores other work leaves free: on a busy machine the run stays here', () => {
    expect(workersWorthIt(1, 100_000, { cores: 2, load: 9 })).toBe(0);
    // 3 free cores: two workers and their collectors keep them busy, a third would only share them.
    expect(workersWorthIt(1, 100_000, { cores: 8, load: 6 })).toBe(2);
  });

  it('chooses workers only when the projection beats running here, start-up and overhead counted', () => {
    for (const machine of [quiet, eight, { cores: 16, load: 3 }]) {
      for (const trials of [100, 1_000, 2_000, 3_000, 5_000, 20_000, 200_000]) {
        const n = workersWorthIt(1, trials, machine);
        const free = freeCores(machine);
        if (n > 0) expect(projectedMs(trials, n, free)).toBeLessThan(trials * 0.9);
        for (let other = 2; other <= free; other++)
          expect(projectedMs(trials, other, free)).toBeGreaterThanOrEqual(
            n > 0 ? projectedMs(trials, n, free) : trials * 0.9,
          );
      }
    }
  });
});

describe('batchSize', () => {
  it('sends one trial until one was timed, then about 25 ms of them, 64 at most', () => {
    expect(batchSize(undefined)).toBe(1);
    expect(batchSize(1)).toBe(25);
    expect(batchSize(0.1)).toBe(64);
    expect(batchSize(0)).toBe(64);
    expect(batchSize(300)).toBe(1);
  });
});
