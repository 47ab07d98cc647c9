import { describe, expect, it } from 'vitest';
import { WORKER_OVERHEAD, WORKER_START_MS, workersWorthIt } from './workersWorthIt.js';
import { batchSize } from './runOnWorkers.js';

const quiet = { cores: 2, load: 0.3 };

describe('workersWorthIt', () => {
  it('keeps a run whose trials cost less than a worker start-up in process', () => {
    // The default run: 60 trials of about 1 ms.
    expect(workersWorthIt(1, 60, quiet)).toBe(0);
    expect(workersWorthIt(1, 1_000, quiet)).toBe(0);
  });

  it('puts a run of seconds of trials on as many workers as there are free cores', () => {
    expect(workersWorthIt(1, 6_000, quiet)).toBe(2);
    expect(workersWorthIt(1, 100_000, { cores: 8, load: 0.5 })).toBe(8);
    expect(workersWorthIt(300, 40, quiet)).toBe(2);
  });

  it('counts only the cores other work leaves free: on a busy machine the run stays here', () => {
    expect(workersWorthIt(1, 100_000, { cores: 2, load: 9 })).toBe(0);
    expect(workersWorthIt(1, 100_000, { cores: 8, load: 6 })).toBe(3);
  });

  it('chooses workers only when the projection beats running here, start-up and overhead counted', () => {
    for (const trials of [100, 1_000, 2_000, 3_000, 5_000, 20_000]) {
      const n = workersWorthIt(1, trials, quiet);
      const here = trials;
      if (n > 0) expect(WORKER_START_MS + (here * (1 + WORKER_OVERHEAD)) / n).toBeLessThan(here);
      else expect(WORKER_START_MS + (here * (1 + WORKER_OVERHEAD)) / 2).toBeGreaterThan(here * 0.9);
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
