import { describe, expect, it } from 'vitest';
import { RetryConfigSchema } from '../runtime/config.js';
import { cellMetrics } from '../stats/metrics.js';
import { defineScenario, type ScenarioInput } from '../scenario/scenario.js';
import { runTrial } from './trial.js';

const noJitter = RetryConfigSchema.parse({
  name: 'no-jitter',
  maxAttempts: 10,
  retryConflicts: true,
  backoff: { kind: 'exponential', baseMs: 100, capMs: 10_000, multiplier: 2, jitter: 'none' },
});

const crowd = (input: Partial<ScenarioInput> & Pick<ScenarioInput, 'services' | 'world' | 'agents'>) =>
  defineScenario({
    name: 'crowd',
    agent: {
      kind: 'scripted',
      task: 't',
      plan: { steps: [{ tool: 'process_job', input: { jobId: 'job-{agent}' }, subject: 'jobs:job-{agent}' }] },
    },
    budget: { maxAttemptsPerCall: 10 },
    ...input,
  } as ScenarioInput);

const endsOf = (history: readonly { type: string; t: number; caller?: string }[]) =>
  history.filter((e) => e.type === 'agent_end').map((e) => [e.caller, e.t]);

describe('many agents in one trial', () => {
  it('5 agents in lockstep on one record: one winner per round, 5 + 4 + 3 + 2 + 1 deliveries', async () => {
    const scenario = crowd({
      services: ['records'],
      world: { records: { transactionMs: 10 } },
      agents: 5,
      agent: {
        kind: 'scripted',
        task: 't',
        plan: { steps: [{ tool: 'update_record', input: { record: 'rec-0', writer: 'w-{agent}', value: '{agent}' } }] },
      },
      checks: ['goal-state', 'budget', 'duplicates'],
    });
    const trial = await runTrial({ scenario, config: noJitter, runSeed: 1, trialIndex: 0 });
    expect(trial.status).toBe('passed');
    expect(trial.stats).toMatchObject({ operations: 5, deliveries: 15, duplicateEffects: 0 });
    // Rounds end at 10 ms, then every retry waits 100, 200, 400, 800 ms and takes 10 ms.
    expect(
      endsOf(trial.history)
        .map(([, t]) => t)
        .sort((a, b) => Number(a) - Number(b)),
    ).toEqual([10, 120, 330, 740, 1_550]);
    expect(trial.history.filter((e) => e.type === 'tool_call').map((e) => e.caller)).toEqual([
      'agent-0',
      'agent-1',
      'agent-2',
      'agent-3',
      'agent-4',
    ]);
    expect(trial.snapshot.services['records']).toEqual({
      records: { 'rec-0': { version: 5, value: expect.any(Number) } },
      commits: 5,
      conflicts: 10,
    });
    const m = cellMetrics([trial]);
    expect(m.amplification).toBe(3);
    expect(m.crowd).toMatchObject({
      agents: 5,
      succeeded: 5,
      successRate: 1,
      maxSendsPerOperation: 5,
      completionMs: { p50: 330, p95: 1_550, max: 1_550 },
      throttled: { responses: 0, ms: 0 },
    });
  });

  it('counts the time calls spend throttled, from each 429 to their next send', async () => {
    // One token at a time, one per second: the second agent is refused with Retry-After 1 s.
    const scenario = crowd({
      services: ['jobs'],
      world: { jobs: { serviceTimeMs: 10, capacity: { rateLimit: { perSecond: 1, burst: 1 } } } },
      agents: 2,
    });
    const config = RetryConfigSchema.parse({ name: 'honour', backoff: { kind: 'fixed', delayMs: 50 } });
    const trial = await runTrial({ scenario, config, runSeed: 1, trialIndex: 0 });
    expect(trial.stats.deliveries).toBe(3);
    expect(trial.stats.crowd).toMatchObject({ agents: 2, succeeded: 2, throttled: { responses: 1, ms: 1_000 } });
    expect(endsOf(trial.history)).toEqual([
      ['agent-0', 10],
      ['agent-1', 1_010],
    ]);
  });

  it('each agent has its own budget; past the deadline the trial stops and the agents still running count as unfinished', async () => {
    const scenario = crowd({
      services: ['jobs'],
      world: { jobs: { serviceTimeMs: 400, capacity: { maxConcurrent: 1, queueLimit: 5 } } },
      agents: 3,
      budget: { maxAttemptsPerCall: 10, deadlineMs: 500 },
    });
    const trial = await runTrial({ scenario, config: noJitter, runSeed: 1, trialIndex: 0 });
    expect(trial.end).toEqual({ kind: 'budget_exceeded', limit: 'time', at: 500 });
    expect(trial.stats.crowd).toMatchObject({ agents: 3, succeeded: 1 });
    const goal = trial.checks.find((c) => c.name === 'goal-state')!.verdict;
    expect(goal.valid).toBe(false);
    // Three agents of one tool call each: under their own limit of 20, though the trial made 3 calls.
    expect(trial.checks.find((c) => c.name === 'budget')!.verdict).toMatchObject({
      valid: false,
      message: expect.stringContaining('stopped at t=500ms for exceeding its time limit'),
    });
    expect(JSON.stringify(trial.checks.find((c) => c.name === 'budget')!.verdict)).not.toContain('tool call');
  });
});
