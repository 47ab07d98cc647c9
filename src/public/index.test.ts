import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as report from './report.js';
import * as runtime from './runtime.js';
import * as testing from './testing.js';

describe('the public entries', () => {
  it('the main entry is what users write and run with, on one screen; the rest is in the subpaths', () => {
    const main = [
      'defineScenario',
      'defineService',
      'defineAgent',
      'defineHttpAgent',
      'defineConfig',
      'ServiceError',
      'HttpError',
      'z',
      'finalFromText',
      'readToolResult',
      'runTrial',
      'runMatrix',
      'loadScenarios',
      'loadConfigs',
      'rulebookDefault',
      'passHatK',
      'passAtK',
      'BUILTIN_CHECKERS',
      'FaultlineError',
      'FaultlineErrorCode',
      'isFaultlineError',
    ];
    expect(Object.keys(api).sort()).toEqual([...main].sort());
    expect(Object.keys(report)).toEqual(
      expect.arrayContaining([
        'renderConsoleReport',
        'writeReports',
        'formatTimeline',
        'replayCommand',
        'parseJsonReport',
        'mergeRuns',
        'parseGate',
        'passIntervals',
      ]),
    );
    expect(Object.keys(runtime)).toEqual(
      expect.arrayContaining(['Executor', 'RetryConfigSchema', 'parseExecutionConfig', 'runtimeConfig']),
    );
    expect(Object.keys(testing)).toEqual(
      expect.arrayContaining([
        'createWorld',
        'World',
        'tasks',
        'ScriptedModel',
        'sample',
        'ScenarioSchema',
        'LIBRARY_DIR',
      ]),
    );
    // Each value is offered by one entry only, so an import says where a thing belongs.
    const entries = [Object.keys(api), Object.keys(report), Object.keys(runtime), Object.keys(testing)];
    const all = entries.flat();
    expect(all.filter((name, i) => all.indexOf(name) !== i)).toEqual([]);
  });

  it('is enough to define a scenario, run it and read the result', async () => {
    const scenario = api.defineScenario({
      name: 'public-api',
      faults: [{ match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'unavailable', status: 503 } }],
      agent: {
        kind: 'scripted',
        task: 'Create order ref-1',
        plan: {
          steps: [
            {
              name: 'order',
              tool: 'create_order',
              input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 },
            },
          ],
        },
      },
      goal: { effects: { 'order.created': 1 } },
    });
    const trial = await api.runTrial({ scenario, config: api.rulebookDefault, runSeed: 7, trialIndex: 0 });
    expect(trial.status).toBe('passed');
    expect(report.formatTimeline(trial.history)).toContain('fault unavailable(status=503)');
    expect(report.replayCommand(trial)).toBe('faultline replay public-api --config rulebook --seed 7 --trial 0');
    expect(api.passHatK([{ n: 4, c: 3 }], 2)).toBe(0.5);
  });
});
