import { describe, expect, it } from 'vitest';
import { defineScenario } from '../../src/scenario/scenario.js';
import { crowdCell, crowdConfig } from './crowd.js';

describe('a thousand agents in one trial', () => {
  it('run concurrently on one virtual clock and all finish: a function agent, each writing one of 50 records', async () => {
    const scenario = defineScenario({
      name: 'optimistic-1000',
      services: ['records'],
      world: { records: { transactionMs: 10 } },
      agents: 1_000,
      agent: {
        kind: 'function',
        task: 'Write your record.',
        fn: async ({ agent, tools }) => {
          const r = await tools['update_record']!({ record: `rec-${agent % 50}`, writer: `w-${agent}`, value: agent });
          return { outcome: r.kind === 'ok' ? 'completed' : 'failed' };
        },
      },
      checks: ['goal-state', 'budget', 'duplicates', 'amplification', 'honesty'],
      budget: { maxAttemptsPerCall: 10, deadlineMs: 600_000 },
    });
    const cell = await crowdCell(scenario, await crowdConfig('decorrelated-jitter'));
    const crowd = cell.metrics.crowd!;
    expect(cell.metrics.ends).toEqual({ agent_ended: 1 });
    expect([crowd.agents, cell.metrics.operations]).toEqual([1_000, 1_000]);
    expect(crowd.successRate).toBeGreaterThan(0.9);
    // Concurrent, not one after another: all thousand were at the service in its first 100 ms.
    expect(crowd.load[0]).toBeGreaterThanOrEqual(1_000);
  });
});
