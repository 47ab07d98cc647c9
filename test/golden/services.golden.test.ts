/**
 * Speed may not change a history byte (issue 25), through a user's own services: the capacity
 * door, checks on arrival, processing time, output schemas, status queries by business key,
 * stale reads, `ctx.peer` and `ctx.travel`, with chains of reads and writes started together
 * (`serviceCases.ts`). Each whole trial result is pinned by its hash. The hashes were re-taken
 * once for issue 44's rule (one order at one virtual instant, docs/determinism.md); since then no
 * count of microtask hops can move them (sameInstant.law.test.ts). A change here is a change of
 * behaviour, not of speed: if it is meant, it needs its own commit that says so, with the new hashes.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../../src/public/index.js';
import { hashTrials } from './pinnedHashes.js';
import { CASE_CONFIGS, serviceCases } from './serviceCases.js';

describe("trials through a user's own services are pinned (speed may not change a byte)", () => {
  it('every case under the reference runtime and a library, two seeds each', async () => {
    expect(await hashTrials(serviceCases(api), await api.loadConfigs([...CASE_CONFIGS]), [1, 2])).toEqual(PINNED);
  });
});

// Re-taken for issue 44's rule (one order at one virtual instant); test/golden/orderOnly.ts compares them with the old.
const PINNED: Record<string, string> = {
  'a crowd of five through the door \u00d7 cockatiel-decorrelated \u00d7 seed 1': '4bf2cdbd33fb77b7',
  'a crowd of five through the door \u00d7 cockatiel-decorrelated \u00d7 seed 2': '762f3a3cc6b4611c',
  'a crowd of five through the door \u00d7 full-jitter-budget \u00d7 seed 1': '8b9e40ec40955955',
  'a crowd of five through the door \u00d7 full-jitter-budget \u00d7 seed 2': '1a9621831828ac7c',
  'a crowd of five through the door \u00d7 naive \u00d7 seed 1': '09873457930d252e',
  'a crowd of five through the door \u00d7 naive \u00d7 seed 2': '2cbea5985330a2f1',
  'a crowd of five through the door \u00d7 rulebook \u00d7 seed 1': 'ed936d8ed13cde8e',
  'a crowd of five through the door \u00d7 rulebook \u00d7 seed 2': 'aef9c3964a59e1a6',
  'a door: rate limit, two slots, a queue of one; processing time \u00d7 cockatiel-decorrelated \u00d7 seed 1':
    'e8dd36a25c9b64a3',
  'a door: rate limit, two slots, a queue of one; processing time \u00d7 cockatiel-decorrelated \u00d7 seed 2':
    '4d415393e0cc4ecf',
  'a door: rate limit, two slots, a queue of one; processing time \u00d7 full-jitter-budget \u00d7 seed 1':
    'b209cf1ca1aa0eba',
  'a door: rate limit, two slots, a queue of one; processing time \u00d7 full-jitter-budget \u00d7 seed 2':
    '39c949bd06e3a3e2',
  'a door: rate limit, two slots, a queue of one; processing time \u00d7 naive \u00d7 seed 1': '059b82054239ef32',
  'a door: rate limit, two slots, a queue of one; processing time \u00d7 naive \u00d7 seed 2': 'f674c980647aa21b',
  'a door: rate limit, two slots, a queue of one; processing time \u00d7 rulebook \u00d7 seed 1': 'b3e4343c3a720751',
  'a door: rate limit, two slots, a queue of one; processing time \u00d7 rulebook \u00d7 seed 2': '80c5ecd796721ec4',
  'a network with variance, and a door \u00d7 cockatiel-decorrelated \u00d7 seed 1': '2576832cc02de42b',
  'a network with variance, and a door \u00d7 cockatiel-decorrelated \u00d7 seed 2': 'ee76477fdff8149e',
  'a network with variance, and a door \u00d7 full-jitter-budget \u00d7 seed 1': 'd560c1dd3fe56657',
  'a network with variance, and a door \u00d7 full-jitter-budget \u00d7 seed 2': '4762ed4becaef261',
  'a network with variance, and a door \u00d7 naive \u00d7 seed 1': 'ce9c5f9712be6d16',
  'a network with variance, and a door \u00d7 naive \u00d7 seed 2': 'a49708484ef5ed96',
  'a network with variance, and a door \u00d7 rulebook \u00d7 seed 1': '8ca39f8a7f662233',
  'a network with variance, and a door \u00d7 rulebook \u00d7 seed 2': '59f13f2a40558017',
  'lost answers and refusals, reconciled by status queries \u00d7 cockatiel-decorrelated \u00d7 seed 1':
    '3493203810436e69',
  'lost answers and refusals, reconciled by status queries \u00d7 cockatiel-decorrelated \u00d7 seed 2':
    'b21975631a255aec',
  'lost answers and refusals, reconciled by status queries \u00d7 full-jitter-budget \u00d7 seed 1': '37c7c5741bebcd63',
  'lost answers and refusals, reconciled by status queries \u00d7 full-jitter-budget \u00d7 seed 2': '6a6d72660e0fa3fd',
  'lost answers and refusals, reconciled by status queries \u00d7 naive \u00d7 seed 1': 'dd0470d8eb2f8a7e',
  'lost answers and refusals, reconciled by status queries \u00d7 naive \u00d7 seed 2': '65ce1f0310bf4d4e',
  'lost answers and refusals, reconciled by status queries \u00d7 rulebook \u00d7 seed 1': 'feed4b4dfb8b19d5',
  'lost answers and refusals, reconciled by status queries \u00d7 rulebook \u00d7 seed 2': 'b8b2e172d3af90d6',
  'no faults, no capacity \u00d7 cockatiel-decorrelated \u00d7 seed 1': 'd95a65c806ce91af',
  'no faults, no capacity \u00d7 cockatiel-decorrelated \u00d7 seed 2': '181320c8bcb9a9ea',
  'no faults, no capacity \u00d7 full-jitter-budget \u00d7 seed 1': '9ff1493dfedfb0be',
  'no faults, no capacity \u00d7 full-jitter-budget \u00d7 seed 2': '4bedbf7689f6d918',
  'no faults, no capacity \u00d7 naive \u00d7 seed 1': 'ae6d7a4d3472b1f3',
  'no faults, no capacity \u00d7 naive \u00d7 seed 2': 'a9c8b21c3777d4c4',
  'no faults, no capacity \u00d7 rulebook \u00d7 seed 1': 'ca84a24e70e90f2f',
  'no faults, no capacity \u00d7 rulebook \u00d7 seed 2': '75898010a618e1b6',
  'stale reads and concurrent duplicates \u00d7 cockatiel-decorrelated \u00d7 seed 1': 'd093cb5228016eea',
  'stale reads and concurrent duplicates \u00d7 cockatiel-decorrelated \u00d7 seed 2': '6a471b0784e7b41f',
  'stale reads and concurrent duplicates \u00d7 full-jitter-budget \u00d7 seed 1': '634d74924151c730',
  'stale reads and concurrent duplicates \u00d7 full-jitter-budget \u00d7 seed 2': 'adf40a41b8d7812a',
  'stale reads and concurrent duplicates \u00d7 naive \u00d7 seed 1': '96acb7fa214c8303',
  'stale reads and concurrent duplicates \u00d7 naive \u00d7 seed 2': '076e5691d69a57aa',
  'stale reads and concurrent duplicates \u00d7 rulebook \u00d7 seed 1': '048c174f39f62b0d',
  'stale reads and concurrent duplicates \u00d7 rulebook \u00d7 seed 2': '4499071c27ec08f1',
};
