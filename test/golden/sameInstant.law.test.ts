/**
 * The law behind the goldens (issue 44, docs/determinism.md "One order at one virtual instant"):
 * events that fall at one virtual instant are ordered by what scheduled them, never by how many
 * microtask hops a code path takes. So the same trial with extra awaits inserted at
 * points of the agent, of the services and of the execution layer and the wire (the `hopSeam`,
 * a different count at each pass through each point) gives the same bytes. The trials are built
 * where concurrent calls meet: chains of reads and writes started together, a crowd on one
 * record, lost answers, refusals, concurrent duplicates, a constant network latency.
 */
import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect } from 'vitest';
import { hopSeam } from '../../src/core/extraHops.js';
import * as api from '../../src/public/index.js';
import { runTrial } from '../../src/runner/trial.js';
import type { ExecutionConfig } from '../../src/runtime/executionConfig.js';
import type { Scenario, ScenarioInput } from '../../src/scenario/scenario.js';

const { defineScenario, defineService, defineAgent, ServiceError, z } = api;

/** Hops at `point`: the next of its counts (cycling), or none for a point the run does not name. */
const plan: { hops: Record<string, readonly number[]>; passes: Map<string, number> } = { hops: {}, passes: new Map() };
const hop = async (point: string): Promise<void> => {
  const n = hopSeam.at?.(point) ?? 0;
  for (let i = 0; i < n; i++) await Promise.resolve();
};

const store = defineService({
  name: 'store',
  state: { stock: 3, orders: [] as string[], version: 0 },
  tools: {
    reserve: {
      description: 'Take one from stock, if the caller saw the current version.',
      risk: 'write',
      businessKey: 'ref',
      input: z.object({ ref: z.string(), version: z.number().int() }).strict(),
      async run(input, ctx) {
        await hop('service:reserve:before');
        if (input.version !== ctx.state.version || ctx.state.stock === 0)
          throw new ServiceError(409, { code: 'conflict', message: `version ${ctx.state.version}` });
        ctx.state.stock--;
        ctx.state.version++;
        const id = ctx.id('ord');
        ctx.state.orders.push(id);
        await hop('service:reserve:after');
        ctx.effect('reserved', { key: input.ref, data: { id } });
        return { id, version: ctx.state.version };
      },
    },
    look: {
      description: 'Read the stock and its version.',
      risk: 'read',
      input: z.object({}).strict(),
      async run(_input, ctx) {
        await hop('service:look');
        return { stock: ctx.state.stock, version: ctx.state.version };
      },
    },
  },
});

type Answer = { kind: string; value?: unknown };
type Tool = (input: Record<string, unknown>) => Promise<Answer>;

/**
 * Two chains at once, each reading the version then reserving with it, a third one hop later. Hops before the agent
 * starts and after each answer: hops between one agent's own concurrent chains would change which call it makes first,
 * which is the agent's own behaviour, not the harness's order.
 */
const agent = defineAgent(async ({ tools, agent: index }) => {
  const t = tools as unknown as Record<string, Tool>;
  const me = index ?? 0;
  const seen: string[] = [];
  await hop(`agent:${me}:start`);
  const call = async (name: string, input: Record<string, unknown>): Promise<Answer> => {
    const answer = await t[name]!(input);
    await hop(`agent:${me}:after`);
    return answer;
  };
  const chain = async (name: string): Promise<void> => {
    for (let i = 0; i < 2; i++) {
      const looked = await call('look', {});
      const version = (looked.value as { version?: number } | undefined)?.version ?? -1;
      const reserved = await call('reserve', { ref: `${name}-${me}-${i}`, version });
      seen.push(`${name}${i}:${reserved.kind}`);
    }
  };
  await Promise.all([
    chain('a'),
    chain('b'),
    (async () => {
      await Promise.resolve();
      await chain('c');
    })(),
  ]);
  return { outcome: 'completed', message: seen.join(' ') };
});

const base = {
  name: 'same-instant',
  services: [store],
  agent: { kind: 'function', task: 'reserve stock from three chains at once', fn: agent },
  goal: { outcome: ['completed'] },
} satisfies ScenarioInput;

const CASES: Record<string, ScenarioInput> = {
  'one agent, no faults': base,
  'a crowd of three': { ...base, agents: 3 },
  'lost answers, refusals and concurrent duplicates': {
    ...base,
    faults: [
      { match: { tool: 'reserve' }, fault: { kind: 'partial_write', lostAs: 'timeout' }, times: 1 },
      { match: { tool: 'look' }, fault: { kind: 'unavailable', status: 503 }, times: 2 },
      { match: { tool: 'reserve' }, fault: { kind: 'duplicate', copies: 2, concurrent: true }, times: 2 },
    ],
  },
  'a crowd of three through a door of one slot, timing out': {
    ...base,
    agents: 3,
    world: { store: { capacity: { maxConcurrent: 1, queueLimit: 4 }, processingMs: 2 } },
    faults: [{ match: { tool: 'reserve' }, fault: { kind: 'timeout' }, times: 2 }],
  },
  'a crowd of two on a constant network': {
    ...base,
    agents: 2,
    network: { latency: { kind: 'constant', ms: 5 } },
  },
};

const POINTS = [
  'runtime:attempt',
  'runtime:answer',
  'wire:send',
  'wire:deliver',
  'wire:served',
  'wire:aborted',
  'service:reserve:before',
  'service:reserve:after',
  'service:look',
  ...[0, 1, 2].flatMap((i) => [`agent:${i}:start`, `agent:${i}:after`]),
];

const bytesOf = async (scenario: Scenario, config: ExecutionConfig): Promise<string> =>
  JSON.stringify(await runTrial({ scenario, config, runSeed: 7, trialIndex: 0 }));

const scenarios = Object.entries(CASES).map(([label, input]) => [label, defineScenario(input)] as const);
const configs = await api.loadConfigs(['rulebook', 'cockatiel-decorrelated']);
const baseline = new Map<string, string>();
for (const [label, scenario] of scenarios)
  for (const config of configs) baseline.set(`${label} × ${config.name}`, await bytesOf(scenario, config));

afterEach(() => {
  hopSeam.at = undefined;
});

describe('one order at one virtual instant: microtask hops change no history byte', () => {
  test.prop(
    [
      fc.record(
        Object.fromEntries(POINTS.map((p) => [p, fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 6 })])),
      ),
      fc.constantFrom(...scenarios.keys()),
      fc.constantFrom(...configs.keys()),
    ],
    { numRuns: 40, seed: 44 },
  )('hops at the agent, the services, the execution layer and the wire', async (hops, s, c) => {
    plan.hops = hops;
    plan.passes = new Map();
    hopSeam.at = (point) => {
      const counts = plan.hops[point] ?? [0];
      const pass = plan.passes.get(point) ?? 0;
      plan.passes.set(point, pass + 1);
      return counts[pass % counts.length]!;
    };
    const [label, scenario] = scenarios[s]!;
    const config = configs[c]!;
    const bytes = await bytesOf(scenario, config);
    hopSeam.at = undefined;
    expect(bytes === baseline.get(`${label} × ${config.name}`), `${label} × ${config.name}`).toBe(true);
  });
});
