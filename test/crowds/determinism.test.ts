import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../src/core/index.js';
import { runTrial } from '../../src/runner/trial.js';
import { crowdConfig, crowdScenario } from './crowd.js';

const hashOf = (history: readonly HistoryEvent[]): string => {
  const hash = createHash('sha256');
  for (const e of history) hash.update(`${JSON.stringify(e)}\n`);
  return hash.digest('hex');
};

describe('same seed, same history, with many agents', () => {
  it.each(['cockatiel-decorrelated', 'p-retry-randomized', 'full-jitter', 'decorrelated-jitter'])(
    '%s: the same seed gives the same history; another seed, another',
    async (name) => {
      const scenario = { ...(await crowdScenario('optimistic-100')), agents: 40 };
      const config = await crowdConfig(name);
      const realRandom = Math.random;
      const realSetTimeout = globalThis.setTimeout;
      const run = (runSeed: number) => runTrial({ scenario, config, runSeed, trialIndex: 0 });
      const [a, b, c] = [await run(11), await run(11), await run(12)];
      expect(hashOf(a.history)).toBe(hashOf(b.history));
      expect(a.stats).toEqual(b.stats);
      expect(a.snapshot.hash).toBe(b.snapshot.hash);
      expect(hashOf(c.history)).not.toBe(hashOf(a.history));
      // The library's globals are back as they were.
      expect(Math.random).toBe(realRandom);
      expect(globalThis.setTimeout).toBe(realSetTimeout);
    },
  );

  it('a library configuration waits in virtual time: minutes of backoff cost no wall time', async () => {
    const scenario = { ...(await crowdScenario('jobs-outage')), agents: 20 };
    const config = await crowdConfig('p-retry-randomized');
    const trial = await runTrial({ scenario, config, runSeed: 1, trialIndex: 0 });
    expect(trial.end.kind).toBe('agent_ended');
    expect(trial.stats.crowd?.completionMs.at(-1)?.[0]).toBeGreaterThan(20_000);
  });

  it('spreads arrivals over a window, or as a Poisson process, from the seed', async () => {
    const base = await crowdScenario('jobs-outage');
    const config = await crowdConfig('full-jitter');
    for (const arrival of [
      { kind: 'uniform', overMs: 1_000 },
      { kind: 'poisson', perSecond: 10 },
    ] as const) {
      const scenario = { ...base, agents: 4, arrival };
      const starts = async (runSeed: number) =>
        (await runTrial({ scenario, config, runSeed, trialIndex: 0 })).history.flatMap((e) =>
          e.type === 'agent_start' ? [e.startMs] : [],
        );
      const a = await starts(5);
      expect(await starts(5)).toEqual(a);
      expect(a).toHaveLength(4);
      expect(new Set(a).size, arrival.kind).toBeGreaterThan(1);
      if (arrival.kind === 'uniform') expect(Math.max(...a)).toBeLessThanOrEqual(1_000);
    }
  });
});
