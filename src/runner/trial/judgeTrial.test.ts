import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../scenario/scenario.js';
import type { TrialCommon } from '../../stats/trialResult.js';
import { checkersOf, scrubbed } from './judgeTrial.js';

/** Only what `checkersOf` reads of a scenario. */
const scenarioWith = (parts: Partial<Record<'faults' | 'model' | 'crash' | 'recovery', unknown>>): Scenario =>
  ({ faults: [], ...parts }) as unknown as Scenario;
const judgesMistakes = (s: Scenario): boolean => checkersOf(s).some((c) => c.name === 'model-mistakes');

describe('checkersOf', () => {
  it("judges the model's mistakes where a rule makes them: a truncated rule that names no tool strikes the model too", () => {
    const cut = { match: {}, fault: { kind: 'truncated', keep: 5 } };
    expect(judgesMistakes(scenarioWith({ faults: [cut], model: { api: 'openai' } }))).toBe(true);
    expect(judgesMistakes(scenarioWith({ faults: [cut] }))).toBe(false);
    const onTool = { match: { tool: 'create_order' }, fault: { kind: 'truncated', keep: 5 } };
    expect(judgesMistakes(scenarioWith({ faults: [onTool], model: { api: 'openai' } }))).toBe(false);
    expect(judgesMistakes(scenarioWith({ faults: [{ match: {}, fault: { kind: 'refusal' } }] }))).toBe(true);
  });

  it('judges recovery where crash.agent restarts the agent, with no recovery: declared (an unfinished restart fails it)', () => {
    const judgesRecovery = (s: Scenario): boolean => checkersOf(s).some((c) => c.name === 'recovery');
    expect(judgesRecovery(scenarioWith({ crash: { agent: { afterCall: 2 } } }))).toBe(true);
    expect(
      judgesRecovery(
        scenarioWith({ crash: { agent: { atMs: 100 } }, faults: [{ match: {}, fault: { kind: 'refusal' } }] }),
      ),
    ).toBe(true);
    expect(judgesRecovery(scenarioWith({}))).toBe(false);
  });
});

describe('scrubbed', () => {
  it("scrubs an infra error's message, the provider's own text, of the scenario's secrets", () => {
    const common = { history: [], checks: [] } as unknown as TrialCommon;
    const trial = scrubbed({
      common,
      verdict: { status: 'infra-error', message: 'gateway 502: upstream rejected key sk-live-s3cr3t-value' },
      secrets: ['sk-live-s3cr3t-value'],
    });
    expect(JSON.stringify(trial)).not.toContain('sk-live-s3cr3t-value');
    expect(trial).toMatchObject({ status: 'infra-error', message: expect.stringContaining('gateway 502') as unknown });
  });
});
