import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../core/index.js';
import { parseContentionConfig } from './ContentionConfig.js';
import { parseContentionScenario } from './ContentionScenario.js';
import { contentionMetrics } from './contentionMetrics.js';
import { runContentionTrial } from './runContentionTrial.js';

const noJitter = parseContentionConfig({
  name: 'no-jitter',
  maxAttempts: 10,
  retryConflicts: true,
  backoff: { kind: 'exponential', baseMs: 100, capMs: 10_000, multiplier: 2, jitter: 'none' },
});

describe('runContentionTrial', () => {
  it('5 agents in lockstep on one record: one winner per round, 5 + 4 + 3 + 2 + 1 deliveries', async () => {
    const scenario = parseContentionScenario({ name: 'occ-5', agents: 5, service: { kind: 'optimistic', transactionMs: 10 } });
    const trial = await runContentionTrial({ scenario, config: noJitter, seed: 1, keepHistory: true });
    expect(trial.end).toBe('settled');
    expect(trial.stats).toMatchObject({ logicalCalls: 5, deliveries: 15, duplicates: 0, throttledResponses: 0 });
    // Rounds end at 10 ms, then every retry waits 100, 200, 400, 800 ms and takes 10 ms.
    expect(trial.agents.map((a) => a.endMs)).toEqual([10, 120, 330, 740, 1_550]);
    expect(trial.agents.map((a) => a.ops[0]!.deliveries)).toEqual([1, 2, 3, 4, 5]);
    expect(eventsOf(trial.history ?? [], 'tool_call').map((e) => e.caller)).toEqual(['agent-0/op-0', 'agent-1/op-0', 'agent-2/op-0', 'agent-3/op-0', 'agent-4/op-0']);
    const m = contentionMetrics(scenario, [trial]);
    expect(m).toMatchObject({ agents: 5, deliveries: 15, amplification: 3, maxDeliveriesPerCall: 5, successRate: 1, completionMs: { p50: 330, p95: 1_550, max: 1_550 }, budgetViolations: 0, flags: [] });
    expect(m.passHat).toEqual([1, 1, 1, 1, 1]);
  });

  it('counts the time calls spend throttled, from each 429 to their next send', async () => {
    // One token at a time, one per second: the second client is refused with Retry-After 1 s.
    const scenario = parseContentionScenario({ name: 'rl', agents: 2, service: { kind: 'jobs', serviceTimeMs: 10, capacity: { rateLimit: { perSecond: 1, burst: 1 } } } });
    const config = parseContentionConfig({ name: 'honour', backoff: { kind: 'fixed', delayMs: 50 } });
    const trial = await runContentionTrial({ scenario, config, seed: 1 });
    expect(trial.stats).toMatchObject({ deliveries: 3, throttledResponses: 1, throttledMs: 1_000 });
    expect(trial.agents.map((a) => a.endMs)).toEqual([10, 1_010]);
  });

  it('stops at maxVirtualMs and counts the agents still running as unfinished', async () => {
    const scenario = parseContentionScenario({ name: 'slow', agents: 3, maxVirtualMs: 500, service: { kind: 'jobs', serviceTimeMs: 400, capacity: { maxConcurrent: 1, queueLimit: 5 } } });
    const trial = await runContentionTrial({ scenario, config: noJitter, seed: 1 });
    expect(trial.end).toBe('time_limit');
    const m = contentionMetrics(scenario, [trial]);
    expect([m.unfinished, m.successRate, m.budgetViolations]).toEqual([2, 1 / 3, 2]);
    expect(m.flags).toEqual([{ kind: 'unfinished', agents: 2, atMs: 500 }]);
  });

  it('spreads arrivals over a window with the seed, the same for the same seed', async () => {
    const scenario = parseContentionScenario({ name: 'spread', agents: 4, arrival: { kind: 'uniform', overMs: 1_000 }, service: { kind: 'jobs', serviceTimeMs: 1 } });
    const a = await runContentionTrial({ scenario, config: noJitter, seed: 5 });
    const b = await runContentionTrial({ scenario, config: noJitter, seed: 5 });
    expect(a.agents.map((x) => x.startMs)).toEqual(b.agents.map((x) => x.startMs));
    expect(a.historyHash).toBe(b.historyHash);
    expect(new Set(a.agents.map((x) => x.startMs)).size).toBeGreaterThan(1);
    expect(Math.max(...a.agents.map((x) => x.startMs))).toBeLessThanOrEqual(1_000);
  });
});
