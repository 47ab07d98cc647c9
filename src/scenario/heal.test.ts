import { describe, expect, it } from 'vitest';
import { rulebookDefault } from '../runtime/config.js';
import { parseExecutionConfig, type ExecutionConfigLike } from '../runtime/executionConfig.js';
import { defineScenario, type ScenarioInput } from './scenario.js';
import { runTrial } from '../runner/trial.js';

const OUTAGE: ScenarioInput = {
  name: 'mail-outage',
  faults: [{ match: { tool: 'send_email' }, fault: { kind: 'rate_limit', retryAfter: 2 } }],
  agent: {
    kind: 'scripted',
    task: 'Send the notice.',
    plan: {
      steps: [
        {
          tool: 'send_email',
          input: { messageId: 'n-1', to: 'ops@example.com', subject: 'Notice', body: 'Hi' },
          subject: 'email:n-1',
        },
      ],
    },
  },
  goal: { effects: { 'email.sent': 1 } },
};
const trial = (input: Partial<ScenarioInput>, config: ExecutionConfigLike = rulebookDefault) =>
  runTrial({ scenario: defineScenario({ ...OUTAGE, ...input } as ScenarioInput), config, runSeed: 1, trialIndex: 0 });
const types = (t: Awaited<ReturnType<typeof trial>>) => t.history.map((e) => `${e.t} ${e.type}`);

describe('heal', () => {
  it('ends every fault rule at its instant and records it there; the recovery checker judges what followed', async () => {
    const t = await trial({ heal: { atMs: 3_000 }, recovery: { withinMs: 5_000, maxCallsAfter: 0 } });
    expect(t.status).toBe('passed');
    const heal = t.history.find((e) => e.type === 'heal');
    expect(heal).toMatchObject({ t: 3_000, rules: 1 });
    expect(t.history.filter((e) => e.type === 'fault').every((e) => e.t < 3_000)).toBe(true);
    expect(t.history.filter((e) => e.type === 'fault')).toHaveLength(2);
    expect(t.stats.recovery).toEqual({ timeToRecoverMs: 1_000, callsAfter: 0 });
    expect(t.checks.map((c) => c.name)).toContain('recovery');
  });

  it('fails the recovery of a runtime that gives up during the outage', async () => {
    const noRetry = parseExecutionConfig({
      name: 'no-retry',
      maxAttempts: 1,
      backoff: { kind: 'none' },
      retryBudget: 0,
    });
    const t = await trial({ heal: { atMs: 3_000 }, recovery: { withinMs: 5_000 } }, noRetry);
    expect(t.status).toBe('failed');
    expect(t.stats.recovery).toEqual({ timeToRecoverMs: null, callsAfter: 0 });
    const verdict = t.checks.find((c) => c.name === 'recovery')!.verdict;
    expect(verdict.valid === false && verdict.message).toMatch(
      /^the goal was never reached \(the trial ended at t=2000ms, before the heal at t=3000ms\)/,
    );
  });

  it('a scenario without heal or recovery has the history it had, and no recovery checker or figure', async () => {
    const plain = await trial({});
    expect(plain.history.some((e) => e.type === 'heal')).toBe(false);
    expect(plain.checks.map((c) => c.name)).not.toContain('recovery');
    expect(plain.stats.recovery).toBeUndefined();
  });

  it('a heal after the trial ended changes nothing; a heal at 0 is the plan without faults', async () => {
    const plain = await trial({});
    const late = await trial({ heal: { atMs: 200_000 } });
    expect(late.history).toEqual(plain.history);
    const atZero = await trial({ heal: { atMs: 0 } });
    const none = await trial({ faults: [] });
    expect(types(atZero).filter((e) => e !== '0 heal')).toEqual(types(none));
    expect(atZero.history[1]).toMatchObject({ type: 'heal', t: 0 });
  });
});
