import { describe, expect, it } from 'vitest';
import { compareContention, type ContentionComparison } from '../../src/runner/contention/compareContention.js';
import { loadContentionConfigs, loadContentionScenarios } from '../../src/runner/contention/library.js';

const JITTERED = ['full-jitter', 'equal-jitter', 'decorrelated-jitter', 'full-jitter-cap-1s', 'cockatiel-decorrelated', 'p-retry-randomized'];

let comparison: ContentionComparison | undefined;
async function occ100(): Promise<ContentionComparison> {
  if (comparison) return comparison;
  const [scenario] = await loadContentionScenarios(['optimistic-100']);
  const configs = await loadContentionConfigs(['exponential-no-jitter', 'no-backoff', ...JITTERED]);
  comparison = await compareContention({ scenario: scenario!, configs, seed: 1 });
  return comparison;
}
const metrics = (c: ContentionComparison, name: string) => {
  const r = c.results.find((x) => x.config === name);
  if (!r) throw new Error(`no result for ${name}`);
  return r.metrics;
};

describe('100 clients on one record under optimistic concurrency: the ordering AWS reports', () => {
  it('runs 100 agents at once, each with its own logical call', async () => {
    const c = await occ100();
    expect(c.scenario).toMatchObject({ name: 'optimistic-100', agents: 100, service: 'optimistic' });
    for (const r of c.results) expect([r.config, r.metrics.agents, r.metrics.logicalCalls]).toEqual([r.config, 100, 100]);
  });

  it('exponential backoff without jitter finishes far later than any jittered strategy', async () => {
    const c = await occ100();
    const none = metrics(c, 'exponential-no-jitter');
    for (const name of JITTERED) {
      const jittered = metrics(c, name);
      // Lockstep: every round of retries collides again, so the no-jitter crowd waits out the whole backoff schedule.
      expect(none.completionMs.p50, name).toBeGreaterThan(5 * jittered.completionMs.p95);
      expect(none.completionMs.max, name).toBeGreaterThan(5 * jittered.completionMs.max);
      expect(jittered.successRate, name).toBe(1);
    }
    // One winner per round: 10 attempts let 10 of the 100 through.
    expect(none.successRate).toBe(0.1);
  });

  it('full jitter does less total work than no jitter (and than no backoff)', async () => {
    const c = await occ100();
    const full = metrics(c, 'full-jitter');
    const none = metrics(c, 'exponential-no-jitter');
    expect(full.deliveries).toBeLessThan(0.6 * none.deliveries);
    expect(full.deliveries).toBeLessThan(metrics(c, 'no-backoff').deliveries);
    // Without jitter the rounds are 100, 99, …, 91 writers: 955 deliveries for 10 winners.
    expect(none.deliveries).toBe(955);
  });
});
