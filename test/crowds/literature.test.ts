import { describe, expect, it } from 'vitest';
import type { CrowdMetrics } from '../../src/stats/CrowdTally.js';
import { crowdCell, crowdConfig, crowdScenario } from './crowd.js';

const JITTERED = [
  'full-jitter',
  'equal-jitter',
  'decorrelated-jitter',
  'full-jitter-cap-1s',
  'cockatiel-decorrelated',
  'p-retry-randomized',
];

let results: Map<string, { operations: number; deliveries: number; crowd: CrowdMetrics }> | undefined;
async function occ100(): Promise<NonNullable<typeof results>> {
  if (results) return results;
  const scenario = await crowdScenario('optimistic-100');
  results = new Map();
  for (const name of ['exponential-no-jitter', 'no-backoff', ...JITTERED]) {
    const { metrics } = await crowdCell(scenario, await crowdConfig(name));
    results.set(name, { operations: metrics.operations, deliveries: metrics.deliveries, crowd: metrics.crowd! });
  }
  return results;
}
const metrics = (r: NonNullable<typeof results>, name: string) => {
  const m = r.get(name);
  if (!m) throw new Error(`no result for ${name}`);
  return m;
};

describe('100 agents on one record under optimistic concurrency: the ordering AWS reports', () => {
  it('runs 100 agents at once in one trial, each with its own logical call', async () => {
    const r = await occ100();
    for (const [name, m] of r) expect([name, m.crowd.agents, m.operations]).toEqual([name, 100, 100]);
  });

  it('exponential backoff without jitter finishes far later than any jittered strategy', async () => {
    const r = await occ100();
    const none = metrics(r, 'exponential-no-jitter').crowd;
    for (const name of JITTERED) {
      const jittered = metrics(r, name).crowd;
      // Lockstep: every round of retries collides again, so the no-jitter crowd waits out the whole backoff schedule.
      expect(none.completionMs.p50, name).toBeGreaterThan(5 * jittered.completionMs.p95);
      expect(none.completionMs.max, name).toBeGreaterThan(5 * jittered.completionMs.max);
      expect(jittered.successRate, name).toBe(1);
    }
    // One winner per round: 10 attempts let 10 of the 100 through.
    expect(none.successRate).toBe(0.1);
  });

  it('full jitter does less total work than no jitter (and than no backoff)', async () => {
    const r = await occ100();
    const full = metrics(r, 'full-jitter');
    const none = metrics(r, 'exponential-no-jitter');
    expect(full.deliveries).toBeLessThan(0.6 * none.deliveries);
    expect(full.deliveries).toBeLessThan(metrics(r, 'no-backoff').deliveries);
    // Without jitter the rounds are 100, 99, …, 91 writers: 955 deliveries for 10 winners.
    expect(none.deliveries).toBe(955);
  });
});

describe('with network latency on every leg, N(10 ms, 2 ms): the records service reads and writes on separate legs', () => {
  it('the no-jitter crowd is no longer in lockstep: its work and completion time differ across seeds', async () => {
    const base = await crowdScenario('optimistic-100');
    const scenario = { ...base, agents: 30, network: { latency: { kind: 'normal' as const, meanMs: 10, sdMs: 2 } } };
    const none = await crowdConfig('exponential-no-jitter');
    const seeds = await Promise.all([1, 2, 3].map(async (seed) => (await crowdCell(scenario, none, { seed })).metrics));
    const lockstep = (await crowdCell({ ...base, agents: 30 }, none)).metrics;
    // Without a network every round has exactly one winner: 30 + 29 + … + 21 deliveries, whatever the seed.
    expect(lockstep.deliveries).toBe(255);
    expect(new Set(seeds.map((m) => m.deliveries)).size).toBeGreaterThan(1);
    expect(new Set(seeds.map((m) => m.crowd!.completionMs.p95)).size).toBeGreaterThan(1);
    for (const m of seeds) expect(m.crowd!.successRate).toBeGreaterThan(lockstep.crowd!.successRate);
  });
});
