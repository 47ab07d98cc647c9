import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfigs, loadScenarios } from '../runner/library.js';
import { runTrial } from '../runner/trial.js';
import { explorePlans, judgedChecks, regressionFileName, regressionName, toolsToAim } from './explorePlans.js';

const [rulebook, naive] = await loadConfigs(['rulebook', 'naive']);
const [noIdempotency, deploy] = await loadScenarios(['order-partial-write-no-idempotency', 'deploy-poll-to-completion']);

describe('explorePlans', () => {
  it('aims at the tools the scenario names, and judges by every checker but goal-state', async () => {
    expect(toolsToAim(noIdempotency!)).toEqual(['create_order']);
    expect(toolsToAim(deploy!)).toEqual(['start_deploy', 'get_deploy_status']);
    expect(judgedChecks(noIdempotency!)).not.toContain('goal-state');
    // A scenario that serves a model: its routes are aimed at too.
    const [sdk] = await loadScenarios([fileURLToPath(new URL('../../scenarios/examples/sdk-agents/openai-agent.yaml', import.meta.url))]);
    expect(toolsToAim(sdk!)).toEqual(['open_ticket', 'model:openai.chat.completions', 'model:openai.responses']);
    expect(judgedChecks(noIdempotency!, ['duplicates'])).toEqual(['duplicates']);
  });

  it('finds, shrinks and returns the regression scenario, whose trial 0 is the failing trial', async () => {
    const r = await explorePlans({ scenario: noIdempotency!, config: rulebook!, runs: 100, seed: 1, replaceFaults: true });
    if (r.kind !== 'failed') throw new Error(`expected a failure, got ${r.kind}`);
    expect(r.plan).toEqual([{ match: {}, fault: { kind: 'duplicate', copies: 2 } }]);
    // Named after its plan; its trials draw the seeds the search's did.
    expect(r.regression.name).toBe(regressionFileName(noIdempotency!, rulebook!, 1, r.plan, judgedChecks(noIdempotency!)));
    expect(r.regression.seedName).toBe(regressionName(noIdempotency!, rulebook!, 1));
    expect(r.regression.faults).toEqual(r.plan);
    const again = await runTrial({ scenario: r.regression, config: rulebook!, runSeed: 1, trialIndex: 0 });
    expect(again.history).toEqual(r.trial.history);
    expect(again.status).toBe('failed');
  });

  it('is the same for the same seed, and says when the scenario fails with no added fault', async () => {
    const a = await explorePlans({ scenario: deploy!, config: rulebook!, runs: 30, seed: 3 });
    const b = await explorePlans({ scenario: deploy!, config: rulebook!, runs: 30, seed: 3 });
    expect(a).toEqual(b);
    expect(a.kind).toBe('held');
    const baseline = await explorePlans({ scenario: noIdempotency!, config: naive!, runs: 10, seed: 1 });
    expect(baseline.kind).toBe('baseline_failed');
  });
});
