import { describe, expect, it } from 'vitest';
import { makeRun, makeTrial } from '../report/testing.js';
import { proportionInterval } from './intervals.js';
import { cellMetrics, MetricsTally } from './metrics.js';
import { recoveryQuantile } from './RecoveryTally.js';

describe('recoveryQuantile', () => {
  it('ranks the trials that never recovered after every time, and answers null among them', () => {
    const times = [
      [100, 2],
      [300, 1],
    ] as const;
    expect(recoveryQuantile(times, 1, 0.5)).toBe(100);
    expect(recoveryQuantile(times, 1, 0.75)).toBe(300);
    expect(recoveryQuantile(times, 1, 0.95)).toBeNull();
    expect(recoveryQuantile(times, 0, 0.95)).toBe(300);
    expect(recoveryQuantile([], 0, 0.5)).toBeNull();
  });
});

describe("a cell's recovery metrics", () => {
  const trial = (i: number, recovery: number | null) =>
    makeTrial({ scenario: 'outage', config: 'c', runSeed: 1, trialIndex: i, recovery });

  it('counts recovered trials, their times and the nevers; absent for a scenario without recovery', () => {
    const m = cellMetrics([trial(0, 1_000), trial(1, 2_000), trial(2, null), trial(3, 1_000)]);
    expect(m.recovery).toEqual({
      trials: 4,
      recovered: 3,
      rate: 0.75,
      interval: proportionInterval(3, 4),
      timeToRecoverMs: { p50: 1_000, p95: null, max: null },
      times: [
        [1_000, 2],
        [2_000, 1],
      ],
      never: 1,
      callsAfter: 0,
    });
    expect(
      cellMetrics([makeTrial({ scenario: 'plain', config: 'c', runSeed: 1, trialIndex: 0 })]).recovery,
    ).toBeUndefined();
  });

  it('merges shards to the same figures as one tally, whatever the split', () => {
    const trials = [trial(0, 1_000), trial(1, 2_000), trial(2, null), trial(3, 500), trial(4, 800)];
    const whole = cellMetrics(trials);
    const merged = new MetricsTally();
    merged.addMetrics(cellMetrics(trials.slice(0, 2)));
    merged.addMetrics(cellMetrics(trials.slice(2)));
    expect(merged.metrics().recovery).toEqual(whole.recovery);
  });

  it('reaches the run through its cells', () => {
    const run = makeRun({ k: 2, cells: [{ scenario: 'outage', config: 'c', recovery: [100, 200] }] });
    expect(run.cells[0]!.metrics.recovery).toMatchObject({
      trials: 2,
      recovered: 2,
      timeToRecoverMs: { p50: 100, p95: 200, max: 200 },
    });
  });
});
