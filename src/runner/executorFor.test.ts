import { describe, expect, it } from 'vitest';
import { parseExecutionConfig } from '../runtime/executionConfig.js';
import { defineScenario } from '../scenario/scenario.js';
import { runTrial } from './trial.js';

/** The mail service is down for good: every send answers 503. */
const mailDown = defineScenario({
  name: 'mail-down',
  services: ['email'],
  faults: [{ match: { tool: 'send_email' }, fault: { kind: 'unavailable', status: 503 } }],
  agent: {
    kind: 'scripted',
    task: 'Send the weekly report.',
    plan: {
      steps: [
        {
          tool: 'send_email',
          input: { messageId: 'w-1', to: 'team@example.com', subject: 'Weekly', body: 'ok' },
          subject: 'email:w-1',
        },
      ],
    },
  },
  goal: { outcome: ['failed'], effects: { 'email.sent': 0 } },
});

const count = <T>(items: readonly T[], keep: (t: T) => boolean): number => items.filter(keep).length;

describe('the execution layer a configuration builds for a trial', () => {
  it('stacks layers.sdkRetries below the execution layer and layers.agentRepeats above it, as one caller', async () => {
    const config = parseExecutionConfig({
      name: 'layered',
      maxAttempts: 2,
      backoff: { kind: 'none' },
      singleLayer: false,
      layers: { sdkRetries: 1, agentRepeats: 2 },
    });
    const { history } = await runTrial({ scenario: mailDown, config, runSeed: 1, trialIndex: 0 });
    const calls = history.filter((e) => e.type === 'tool_call');
    // 3 agent calls × 2 runtime attempts × 2 SDK sends.
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((e) => e.type === 'tool_call' && e.caller))).toEqual(
      new Set([calls[0]?.type === 'tool_call' && calls[0].caller]),
    );
    expect(count(history, (e) => e.type === 'attempt')).toBe(6);
    expect(count(history, (e) => e.type === 'response')).toBe(12);
  });

  it('re-sends nothing without layers: one call, the configuration’s attempts, one send each', async () => {
    const config = parseExecutionConfig({ name: 'plain', maxAttempts: 2, backoff: { kind: 'none' } });
    const { history } = await runTrial({ scenario: mailDown, config, runSeed: 1, trialIndex: 0 });
    expect([
      count(history, (e) => e.type === 'tool_call'),
      count(history, (e) => e.type === 'attempt'),
      count(history, (e) => e.type === 'response'),
    ]).toEqual([1, 2, 2]);
  });

  it.each([
    [
      'cockatiel',
      {
        kind: 'cockatiel',
        name: 'c',
        maxAttempts: 4,
        backoff: { kind: 'exponential', initialDelay: 100, maxDelay: 10_000, generator: 'full' },
      },
    ],
    ['p-retry', { kind: 'p-retry', name: 'p', retries: 4, minTimeout: 100, randomize: true }],
  ])('runs %s on the trial clock with a seeded Math.random, and gives the globals back afterwards', async (_, file) => {
    const config = parseExecutionConfig(file);
    const globals = { setTimeout, clearTimeout, random: Math.random, now: Date.now };
    const trials = [];
    for (const trialIndex of [0, 0, 1])
      trials.push(await runTrial({ scenario: mailDown, config, runSeed: 3, trialIndex }));
    const [a, b, other] = trials;
    expect({ setTimeout, clearTimeout, random: Math.random, now: Date.now }).toEqual(globals);
    expect(a!.end).toEqual({ kind: 'agent_ended', outcome: 'failed' });
    expect(count(a!.history, (e) => e.type === 'attempt')).toBe(5);
    const times = (t: typeof a) => t!.history.filter((e) => e.type === 'attempt').map((e) => e.t);
    // Jittered waits on virtual time: seconds of backoff, the same for the same trial, different for another.
    expect(times(a).at(-1)).toBeGreaterThan(100);
    expect(a!.history).toEqual(b!.history);
    expect(times(other)).not.toEqual(times(a));
    // Run at once in one thread, library trials take turns with the globals: the same histories.
    const together = await Promise.all(
      [0, 0, 1].map((trialIndex) => runTrial({ scenario: mailDown, config, runSeed: 3, trialIndex })),
    );
    expect(together.map((t) => t.history)).toEqual(trials.map((t) => t.history));
    expect({ setTimeout, clearTimeout, random: Math.random, now: Date.now }).toEqual(globals);
  });
});
