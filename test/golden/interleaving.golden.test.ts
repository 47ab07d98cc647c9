/**
 * Speed may not change a history byte (issues 25 and 44). Before issue 44, a cut on the delivery
 * path that removed an await moved when an agent resumed, and where concurrent calls met at one
 * virtual instant their events interleaved otherwise. Now each call starts in a turn of the
 * clock's own, ordered by what scheduled it and the agent's index (docs/determinism.md), and no
 * hop count moves a byte (sameInstant.law.test.ts); these pins hold the rule itself still.
 * These trials are built to meet there (chains of reads and
 * writes started together, refusals, lost answers and duplicates among them, a constant network
 * latency that lands legs at the same instants, crowds under the libraries' executors), and each
 * whole result is pinned by its hash. A change here is a change of behaviour, not of speed: if
 * it is meant, it needs its own commit that says so, with the new hashes.
 */
import { describe, expect, it } from 'vitest';
import { defineScenario } from '../../src/scenario/scenario.js';
import { runTrial } from '../../src/runner/trial.js';
import { loadConfigs } from '../../src/scenario/library.js';
import { crowdConfig, crowdScenario } from '../crowds/crowd.js';
import * as api from '../../src/public/index.js';
import { immediateCases } from './immediateCases.js';
import { MIXED_CASES } from './mixedCases.js';
import { hashOf, hashTrials } from './pinnedHashes.js';

describe('histories where concurrent calls meet at one instant are pinned (speed may not change a byte)', () => {
  it('function agents with chains of reads and writes, under the built-in configurations', async () => {
    expect(await hashTrials(MIXED_CASES, await loadConfigs(['rulebook', 'naive']), [1, 2])).toEqual(MIXED);
  });

  it('crowds of agents reading and writing one record, under the reference runtime and the libraries', async () => {
    const hashes: Record<string, string> = {};
    for (const [name, agents] of [
      ['optimistic-100', 30],
      ['jobs-outage', 20],
    ] as const) {
      const scenario = { ...(await crowdScenario(name)), agents };
      for (const configName of ['full-jitter', 'cockatiel-decorrelated', 'p-retry-randomized']) {
        hashes[`${name} × ${configName}`] = hashOf(
          await runTrial({ scenario, config: await crowdConfig(configName), runSeed: 3, trialIndex: 0 }),
        );
      }
    }
    expect(hashes).toEqual(CROWDS);
  });
});

describe("where the clock's batches of turns end is pinned (code that awaits a real immediate resumes after one)", () => {
  it('agents and a service yielding to the event loop while virtual timers are due', async () => {
    const [config] = await loadConfigs(['rulebook']);
    const hashes: Record<string, string> = {};
    for (const [label, input] of Object.entries(immediateCases(api)))
      hashes[label] = hashOf(
        await runTrial({ scenario: defineScenario(input), config: config!, runSeed: 1, trialIndex: 0 }),
      );
    expect(hashes).toEqual(IMMEDIATES);
  });
});

// Re-taken for issue 44's rule (one order at one virtual instant); before it, a first batch of 16 turns instead of 64
// changed three. '40 waits, 2 immediates' re-taken once more when the clock learned to wait for real work no one holds
// (src/core/clock/untrackedWork.ts): its agent, still awaiting its second immediate when the waits ran out, was
// called hung at t=40 and now completes.
const IMMEDIATES: Record<string, string> = {
  '10 waits, 1 immediate': '037b362734d831f1',
  '100 waits, 2 immediates': '742361f7da720d4b',
  '200 waits, 3 immediates': '6a618c34b47ff56e',
  '40 waits, 2 immediates': 'a5f4f16e896707fb',
};

// Re-taken for issue 44's rule (one order at one virtual instant): calls that meet at one instant start in turns of
// the clock's own, by what scheduled them and the agent's index (test/golden/orderOnly.ts compares them with the old).
const MIXED: Record<string, string> = {
  'mixed, constant network latency × naive × seed 1': '9eaa6d254207a253',
  'mixed, constant network latency × naive × seed 2': '611837d3c2a89d0e',
  'mixed, constant network latency × rulebook × seed 1': '19adf727d552afd4',
  'mixed, constant network latency × rulebook × seed 2': 'df60af44e4ba617d',
  'mixed, duplicates delivered at once × naive × seed 1': '6da8fdcdfb415589',
  'mixed, duplicates delivered at once × naive × seed 2': '7194693c9ff9489d',
  'mixed, duplicates delivered at once × rulebook × seed 1': '5756edae3f7c9eca',
  'mixed, duplicates delivered at once × rulebook × seed 2': 'a05e4328d4c7d3f9',
  'mixed, no faults × naive × seed 1': '37a7414e473d896c',
  'mixed, no faults × naive × seed 2': '55b36dbb2ad7e611',
  'mixed, no faults × rulebook × seed 1': '4b62997595ea920b',
  'mixed, no faults × rulebook × seed 2': '1ff56c3e06a5bdbf',
  'mixed, refusals and lost answers × naive × seed 1': 'e5c3d6e3750ecc0a',
  'mixed, refusals and lost answers × naive × seed 2': '5e59f12d939d2d67',
  'mixed, refusals and lost answers × rulebook × seed 1': '8813b07f787b3b27',
  'mixed, refusals and lost answers × rulebook × seed 2': '43b83882d5572478',
};
const CROWDS: Record<string, string> = {
  'jobs-outage × cockatiel-decorrelated': 'df706c992072872a',
  'jobs-outage × full-jitter': '16df4f21ad0e45e4',
  'jobs-outage × p-retry-randomized': 'cca312cea011061f',
  'optimistic-100 × cockatiel-decorrelated': '6d785494271b15c6',
  'optimistic-100 × full-jitter': 'a5799742d68a58d3',
  'optimistic-100 × p-retry-randomized': '0f4e7c4f7b8b7e15',
};
