import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfigs, loadScenarios } from '../scenario/library.js';
import { runTrial } from '../runner/trial.js';
import { failureClasses } from './failureClass.js';
import { explorePlans, judgedChecks } from './explorePlans.js';
import { toolsToAim } from './planTargets.js';
import { regressionFileName, regressionName } from './regressionName.js';

const [rulebook, naive] = await loadConfigs(['rulebook', 'naive']);
const [noIdempotency, deploy] = await loadScenarios([
  'order-partial-write-no-idempotency',
  'deploy-poll-to-completion',
]);

describe('explorePlans', () => {
  it('aims at the tools the scenario names, and judges by every checker but goal-state', async () => {
    expect(toolsToAim(noIdempotency!)).toEqual(['create_order']);
    expect(toolsToAim(deploy!)).toEqual(['start_deploy', 'get_deploy_status']);
    expect(judgedChecks(noIdempotency!)).not.toContain('goal-state');
    // A scenario that serves a model: its routes are aimed at too.
    const dir = await mkdtemp(join(tmpdir(), 'explore-sdk-'));
    const file = join(dir, 'sdk.yaml');
    const example = (path: string): string =>
      fileURLToPath(new URL(`../../scenarios/examples/${path}`, import.meta.url));
    await writeFile(
      file,
      `name: sdk\nservices: [${example('helpdesk/code/helpdesk.service.ts')}]\nmodel: { api: openai, ` +
        `plan: { steps: [{ tool: open_ticket, input: { requestId: r, subject: s } }] } }\nagent: { ` +
        `kind: http, task: t, module: ${example('sdk-agents/code/openaiAgent.ts')} }\n`,
    );
    const [sdk] = await loadScenarios([file]).finally(() => rm(dir, { recursive: true }));
    expect(toolsToAim(sdk!)).toEqual(['open_ticket', 'model:openai.chat.completions', 'model:openai.responses']);
    expect(judgedChecks(noIdempotency!, ['duplicates'])).toEqual(['duplicates']);
  });

  it('finds, shrinks and returns the regression scenario, whose trial 0 is the failing trial', async () => {
    const result = await explorePlans({
      scenario: noIdempotency!,
      config: rulebook!,
      runs: 100,
      seed: 1,
      replaceFaults: true,
    });
    if (result.kind !== 'failed') throw new Error(`expected a failure, got ${result.kind}`);
    const r = result.findings[0]!;
    expect(r.failure).toBe('duplicates/R21');
    expect(r.plan).toEqual([{ match: {}, fault: { kind: 'duplicate', copies: 2 } }]);
    // Named after its plan; its trials draw the seeds the search's did.
    expect(r.regression.name).toBe(
      regressionFileName(noIdempotency!, rulebook!, 1, r.plan, judgedChecks(noIdempotency!)),
    );
    expect(r.regression.seedName).toBe(regressionName(noIdempotency!, rulebook!, 1));
    expect(r.regression.faults).toEqual(r.plan);
    const again = await runTrial({ scenario: r.regression, config: rulebook!, runSeed: 1, trialIndex: 0 });
    expect(again.history).toEqual(r.trial.history);
    expect(again.status).toBe('failed');
    // Coverage: every plan of the budget is counted, and the finding's rule fired in its failing trial.
    expect(result.plans.map((c) => c.plan)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(r.fired).toEqual([{ rule: 0, label: 'any tool, duplicate', firings: expect.any(Number) }]);
    expect(r.fired[0]!.firings).toBeGreaterThan(0);
    // The plan that first showed the class fired a rule of its own: a failure without a firing is no evidence.
    expect(result.plans[r.foundAt - 1]!.rules.some((f) => f.firings > 0)).toBe(true);
  });

  it('is the same for the same seed, and says when the scenario fails with no added fault', async () => {
    const a = await explorePlans({ scenario: deploy!, config: rulebook!, runs: 30, seed: 3 });
    const b = await explorePlans({ scenario: deploy!, config: rulebook!, runs: 30, seed: 3 });
    expect(a).toEqual(b);
    expect(a.kind).toBe('held');
    const baseline = await explorePlans({ scenario: noIdempotency!, config: naive!, runs: 10, seed: 1 });
    if (baseline.kind !== 'failed') throw new Error('expected the naive configuration to fail on its own');
    expect(baseline.baseline?.classes).toEqual(['duplicates/R23', 'retry-discipline/R23']);
    // What the scenario shows on its own is not searched for again.
    for (const f of baseline.findings) expect(baseline.baseline?.classes).not.toContain(f.failure);
  });

  it('reports every class once, each shrunk on its own, and leaves out what --ignore names', async () => {
    const all = await explorePlans({ scenario: noIdempotency!, config: naive!, runs: 100, seed: 1 });
    if (all.kind !== 'failed') throw new Error('expected failures');
    const classes = all.findings.map((f) => f.failure);
    expect(new Set(classes).size).toBe(classes.length);
    expect(classes).toEqual(expect.arrayContaining(['honesty/R20', 'retry-discipline/R7', 'retry-discipline/R9']));
    for (const f of all.findings) expect(failureClasses(f.trial)).toContain(f.failure);
    const ignored = await explorePlans({
      scenario: noIdempotency!,
      config: naive!,
      runs: 100,
      seed: 1,
      ignore: [
        { kind: 'rule', rule: 'R23' },
        { kind: 'checker', name: 'honesty' },
      ],
    });
    if (ignored.kind !== 'failed') throw new Error('expected failures');
    expect(ignored.baseline).toBeUndefined();
    expect(ignored.checks).not.toContain('honesty');
    expect(ignored.findings.map((f) => f.failure)).not.toContain('honesty/R20');
    expect(ignored.findings.map((f) => f.failure)).toContain('retry-discipline/R9');
  });
});
