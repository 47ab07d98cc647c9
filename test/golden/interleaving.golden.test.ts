/**
 * Speed may not change a history byte (issue 25). A cut on the delivery path that removes an
 * await moves when an agent resumes, and where concurrent calls of different shapes meet at one
 * virtual instant, their events interleave otherwise: a history byte changes though every
 * sequential trial stays the same. These trials are built to meet there (chains of reads and
 * writes started together, refusals, lost answers and duplicates among them, a constant network
 * latency that lands legs at the same instants, crowds under the libraries' executors), and each
 * whole result is pinned by its hash. A change here is a change of behaviour, not of speed: if
 * it is meant, it needs its own commit that says so, with the new hashes.
 */
import { describe, expect, it } from 'vitest';
import { defineScenario, type ScenarioInput } from '../../src/scenario/scenario.js';
import { runTrial } from '../../src/runner/trial.js';
import { loadConfigs } from '../../src/scenario/library.js';
import type { AgentFn } from '../../src/agent/agentFunction.js';
import { crowdConfig, crowdScenario } from '../crowds/crowd.js';
import * as api from '../../src/public/index.js';
import { immediateCases } from './immediateCases.js';
import { hashOf, hashTrials } from './pinnedHashes.js';

type Call = (input: Record<string, unknown>) => Promise<{ kind: string; value?: unknown }>;

/** Three chains started together: writes and reads of two services, each next call chosen by what the last answered. */
const mixed: AgentFn = async ({ tools }) => {
  const t = tools as unknown as Record<string, Call>;
  const seen: string[] = [];
  const idOf = (r: { kind: string; value?: unknown }): string =>
    (r.value as { orderId?: string } | undefined)?.orderId ?? 'ord-none';
  const a = (async () => {
    const first = await t['create_order']!({ clientReference: 'ref-1', item: 'pen', quantity: 1, amountCents: 100 });
    seen.push(`a:${first.kind}`);
    const paid = await t['charge_payment']!({
      paymentReference: 'pay-1',
      orderId: idOf(first),
      amountCents: 100,
      currency: 'EUR',
    });
    seen.push(`a:${paid.kind}`);
  })();
  const b = (async () => {
    const read = await t['get_order']!({ orderId: 'ord-1' });
    seen.push(`b:${read.kind}`);
    const second = await t['create_order']!({
      clientReference: read.kind === 'ok' ? 'ref-2' : 'ref-3',
      item: 'pen',
      quantity: 2,
      amountCents: 200,
    });
    seen.push(`b:${second.kind}`);
  })();
  const c = (async () => {
    await Promise.resolve(); // one turn later than the others
    const read = await t['get_order']!({ orderId: 'ord-2' });
    seen.push(`c:${read.kind}`);
    const third = await t['create_order']!({
      clientReference: read.kind === 'ok' ? 'ref-4' : 'ref-5',
      item: 'cup',
      quantity: 1,
      amountCents: 300,
    });
    seen.push(`c:${third.kind}`);
  })();
  await Promise.all([a, b, c]);
  return { outcome: 'completed', message: seen.join(' ') };
};

const base = {
  services: ['orders', 'payments'],
  agent: { kind: 'function', task: 'three chains at once', fn: mixed },
  goal: { outcome: ['completed'] },
} satisfies Partial<ScenarioInput>;

const SCENARIOS: Record<string, ScenarioInput> = {
  'mixed, no faults': { name: 'mixed', ...base },
  'mixed, refusals and lost answers': {
    name: 'mixed-faults',
    ...base,
    faults: [
      { match: { tool: 'create_order' }, fault: { kind: 'partial_write', lostAs: 'timeout' }, times: 1 },
      { match: { tool: 'get_order' }, fault: { kind: 'unavailable', status: 503 }, times: 2 },
      { match: { tool: 'charge_payment' }, fault: { kind: 'rate_limit', retryAfter: 1 }, times: 1 },
    ],
  },
  'mixed, duplicates delivered at once': {
    name: 'mixed-duplicates',
    ...base,
    faults: [{ match: { tool: 'create_order' }, fault: { kind: 'duplicate', copies: 2, concurrent: true }, times: 2 }],
  },
  'mixed, constant network latency': {
    name: 'mixed-network',
    ...base,
    network: { latency: { kind: 'constant', ms: 10 } },
  },
};

describe('histories where concurrent calls meet at one instant are pinned (speed may not change a byte)', () => {
  it('function agents with chains of reads and writes, under the built-in configurations', async () => {
    expect(await hashTrials(SCENARIOS, await loadConfigs(['rulebook', 'naive']), [1, 2])).toEqual(MIXED);
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

// Taken on 787fb70 and the same on a398a6e; a first batch of 16 turns instead of 64 changed three.
const IMMEDIATES: Record<string, string> = {
  '10 waits, 1 immediate': '037b362734d831f1',
  '100 waits, 2 immediates': '742361f7da720d4b',
  '200 waits, 3 immediates': 'dd2350996849bf00',
  '40 waits, 2 immediates': 'da7dda118837868f',
};

// Taken on a398a6e (issue 25's ninth pass started from it), and unchanged since.
const MIXED: Record<string, string> = {
  'mixed, constant network latency × naive × seed 1': 'e5ac0850708434c3',
  'mixed, constant network latency × naive × seed 2': '0f23be52a4b0945c',
  'mixed, constant network latency × rulebook × seed 1': '9e316092d27cb79f',
  'mixed, constant network latency × rulebook × seed 2': '38b1b8da61bf262a',
  'mixed, duplicates delivered at once × naive × seed 1': 'ae4a486ab790a7c6',
  'mixed, duplicates delivered at once × naive × seed 2': '3c215f1153cf4e4b',
  'mixed, duplicates delivered at once × rulebook × seed 1': '383d694a6cfb0973',
  'mixed, duplicates delivered at once × rulebook × seed 2': '09320813a060bcf9',
  'mixed, no faults × naive × seed 1': '9bca8848009a6bf8',
  'mixed, no faults × naive × seed 2': '1796568e127fa61b',
  'mixed, no faults × rulebook × seed 1': 'a56118554cb508df',
  'mixed, no faults × rulebook × seed 2': '4044476f089cbcde',
  'mixed, refusals and lost answers × naive × seed 1': '1992cb4a16e106e8',
  'mixed, refusals and lost answers × naive × seed 2': '64a3fe7f33d31527',
  'mixed, refusals and lost answers × rulebook × seed 1': '473428244d1f25c5',
  'mixed, refusals and lost answers × rulebook × seed 2': '969f922bb1565089',
};
const CROWDS: Record<string, string> = {
  'jobs-outage × cockatiel-decorrelated': '1bb3366ddf8f6d0d',
  'jobs-outage × full-jitter': '01cc007a878313a4',
  'jobs-outage × p-retry-randomized': '75b5c0d8481946be',
  'optimistic-100 × cockatiel-decorrelated': 'dddf4c71051bf878',
  'optimistic-100 × full-jitter': '0549a8ee68a650b5',
  'optimistic-100 × p-retry-randomized': '1b2cc01bcb09a410',
};
