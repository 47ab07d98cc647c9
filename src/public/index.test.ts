import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('the public entry', () => {
  it('exports the documented API', () => {
    const expected = [
      'defineScenario', 'runTrial', 'runMatrix', 'loadScenarios', 'loadConfigs', 'rulebookDefault', 'RetryConfigSchema', 'parseExecutionConfig', 'ExecutionConfigFileSchema', 'Executor',
      'ScriptedModel', 'defineAgent', 'BUILTIN_CHECKERS', 'passHatK', 'passAtK', 'renderConsoleReport', 'renderJsonReport',
      'renderJunitReport', 'renderMarkdownReport', 'writeReports', 'formatTimeline', 'replayCommand', 'parseJsonReport',
      'runFromJsonReport', 'mergeRuns', 'parseGate', 'evaluateGates', 'DEFAULT_GATES', 'FaultlineError', 'readToolResult',
    ];
    expect(expected.filter((name) => !(name in api))).toEqual([]);
  });

  it('is enough to define a scenario, run it and read the result', async () => {
    const scenario = api.defineScenario({
      name: 'public-api',
      faults: [{ match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'unavailable', status: 503 } }],
      agent: {
        kind: 'scripted',
        task: 'Create order ref-1',
        plan: { steps: [{ name: 'order', tool: 'create_order', input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 } }] },
      },
      goal: { effects: { 'order.created': 1 } },
    });
    const trial = await api.runTrial({ scenario, config: api.rulebookDefault, runSeed: 7, trialIndex: 0 });
    expect(trial.status).toBe('passed');
    expect(api.formatTimeline(trial.history)).toContain('fault unavailable(status=503)');
    expect(api.replayCommand(trial)).toBe('faultline replay public-api --config rulebook --seed 7 --trial 0');
    expect(api.passHatK([{ n: 4, c: 3 }], 2)).toBe(0.5);
  });
});
