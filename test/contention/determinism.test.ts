import { describe, expect, it } from 'vitest';
import { runContentionTrial } from '../../src/runner/contention/runContentionTrial.js';
import { loadContentionConfigs, loadContentionScenarios } from '../../src/runner/contention/library.js';

describe('same seed, same history, under contention', () => {
  it.each(['cockatiel-decorrelated', 'p-retry-randomized', 'full-jitter', 'nested-three-layers'])('%s: the same seed gives the same history; another seed, another', async (name) => {
    const [scenario] = await loadContentionScenarios(['optimistic-100']);
    const [config] = await loadContentionConfigs([name]);
    const small = { ...scenario!, agents: 40 };
    const realRandom = Math.random;
    const realSetTimeout = globalThis.setTimeout;
    const a = await runContentionTrial({ scenario: small, config: config!, seed: 11 });
    const b = await runContentionTrial({ scenario: small, config: config!, seed: 11 });
    const c = await runContentionTrial({ scenario: small, config: config!, seed: 12 });
    expect(a.historyHash).toBe(b.historyHash);
    expect(a.agents).toEqual(b.agents);
    expect(a.stats).toEqual(b.stats);
    expect(c.historyHash).not.toBe(a.historyHash);
    // The library's globals are back as they were.
    expect(Math.random).toBe(realRandom);
    expect(globalThis.setTimeout).toBe(realSetTimeout);
  });

  it('a library configuration waits in virtual time: minutes of backoff cost no wall time', async () => {
    const [scenario] = await loadContentionScenarios(['jobs-outage']);
    const [config] = await loadContentionConfigs(['p-retry-randomized']);
    const trial = await runContentionTrial({ scenario: { ...scenario!, agents: 20 }, config: config!, seed: 1 });
    expect(trial.end).toBe('settled');
    expect(Math.max(...trial.agents.map((x) => x.endMs ?? 0))).toBeGreaterThan(20_000);
  });
});
