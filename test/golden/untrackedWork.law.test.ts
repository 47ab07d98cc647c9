/**
 * The law behind the clock's wait for untracked real work (src/core/clock/untrackedWork.ts, docs/determinism.md): an
 * agent that awaits real work no one holds (a file read, a real immediate, a dynamic import, a `process.nextTick`)
 * between its calls gives the same bytes as the same agent without it. Time stands still while it waits, so where
 * nothing else is on the clock (one agent, its calls in a row, faults that end within the call) nothing can move.
 * Before the wait, the first such await with no timer pending ended the trial `hung` at once.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import * as api from '../../src/public/index.js';
import { runTrial } from '../../src/runner/trial.js';
import type { ExecutionConfig } from '../../src/runtime/executionConfig.js';
import type { Scenario, ScenarioInput } from '../../src/scenario/scenario.js';

const { defineScenario, defineService, defineAgent, z } = api;

const KINDS = ['none', 'read', 'immediate', 'import', 'nextTick', 'reads'] as const;
type Kind = (typeof KINDS)[number];
const SELF = fileURLToPath(import.meta.url);

async function realWork(kind: Kind): Promise<void> {
  if (kind === 'read') await readFile(SELF);
  else if (kind === 'reads') for (let i = 0; i < 3; i++) await readFile(SELF);
  else if (kind === 'immediate') await new Promise<void>((resolve) => setImmediate(resolve));
  else if (kind === 'import') await import('node:path');
  else if (kind === 'nextTick') await new Promise<void>((resolve) => process.nextTick(resolve));
}

/** What the agent awaits at each of its points, in order (cycling); empty: nothing. */
const plan: { kinds: readonly Kind[]; pass: number } = { kinds: [], pass: 0 };
const point = (): Promise<void> =>
  plan.kinds.length === 0 ? Promise.resolve() : realWork(plan.kinds[plan.pass++ % plan.kinds.length]!);

const ledger = defineService({
  name: 'ledger',
  state: { balance: 100, entries: [] as string[] },
  tools: {
    post: {
      description: 'Post an entry.',
      risk: 'write',
      businessKey: 'ref',
      input: z.object({ ref: z.string(), amount: z.number().int() }).strict(),
      run(input, ctx) {
        ctx.state.balance -= input.amount;
        ctx.state.entries.push(input.ref);
        ctx.effect('posted', { key: input.ref, data: { amount: input.amount } });
        return { balance: ctx.state.balance };
      },
    },
    balance: {
      description: 'Read the balance.',
      risk: 'read',
      input: z.object({}).strict(),
      run: (_input, ctx) => ({ balance: ctx.state.balance }),
    },
  },
});

type Tool = (input: Record<string, unknown>) => Promise<{ kind: string }>;
const agent = defineAgent(async ({ tools }) => {
  const t = tools as unknown as Record<string, Tool>;
  const seen: string[] = [];
  await point();
  for (let i = 0; i < 3; i++) {
    await point();
    seen.push((await t['balance']!({})).kind);
    await point();
    seen.push((await t['post']!({ ref: `r-${i}`, amount: 10 })).kind);
    await point();
  }
  return { outcome: 'completed', message: seen.join(' ') };
});

const base = {
  name: 'untracked-work',
  services: [ledger],
  agent: { kind: 'function', task: 'post three entries, reading the balance before each', fn: agent },
  goal: { outcome: ['completed'] },
} satisfies ScenarioInput;

const CASES: Record<string, ScenarioInput> = {
  'no faults': base,
  'rate limits, outages and a lost answer, each within its call': {
    ...base,
    faults: [
      { match: { tool: 'balance' }, fault: { kind: 'rate_limit', retryAfter: 2 }, times: 1 },
      { match: { tool: 'post' }, fault: { kind: 'unavailable', status: 503 }, times: 2 },
      { match: { tool: 'post' }, fault: { kind: 'partial_write', lostAs: 'timeout' }, times: 1 },
    ],
  },
};

const bytesOf = async (scenario: Scenario, config: ExecutionConfig): Promise<string> =>
  JSON.stringify(await runTrial({ scenario, config, runSeed: 5, trialIndex: 0 }));

const scenarios = Object.entries(CASES).map(([label, input]) => [label, defineScenario(input)] as const);
const configs = await api.loadConfigs(['rulebook', 'naive']);
const baseline = new Map<string, string>();
for (const [label, scenario] of scenarios)
  for (const config of configs) baseline.set(`${label} × ${config.name}`, await bytesOf(scenario, config));

describe('untracked real work an agent awaits between its calls changes no history byte', () => {
  test('the baselines end as the agent does, not hung', () => {
    for (const bytes of baseline.values()) expect(JSON.parse(bytes).end.kind).toBe('agent_ended');
  });

  test.prop(
    [
      fc.array(fc.constantFrom(...KINDS), { minLength: 1, maxLength: 8 }),
      fc.constantFrom(...scenarios.keys()),
      fc.constantFrom(...configs.keys()),
    ],
    { numRuns: 30, seed: 43 },
  )('file reads, real immediates, imports and ticks between the calls', async (kinds, s, c) => {
    plan.kinds = kinds;
    plan.pass = 0;
    const [label, scenario] = scenarios[s]!;
    const config = configs[c]!;
    try {
      const bytes = await bytesOf(scenario, config);
      expect(
        bytes === baseline.get(`${label} × ${config.name}`),
        `${label} × ${config.name}: ${kinds.join(', ')}`,
      ).toBe(true);
    } finally {
      plan.kinds = [];
    }
  });
});
