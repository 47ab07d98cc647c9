/**
 * Issue 21's acceptance, its planted defects (./realAgentsAcceptance.test.ts has the correct
 * agents, ./realAgents.ts the agents and the project): in a user's project with faultline
 * installed from the packed tarball, each defect is caught by the checker that owns it, with
 * evidence naming the layer at fault, and its replay reproduces it. Through the installed binary
 * itself (`node_modules/.bin/faultline`), the correct agents' file having gone through `npx`.
 */
import { describe, expect, it } from 'vitest';
import { readReport, realAgentsProject, SLOW } from './realAgents.js';

const project = realAgentsProject();

describe('real agents from the packed tarball, through the installed CLI', { timeout: 1_800_000 }, () => {
  it('each planted defect is caught by its checker, with evidence naming the layer at fault', async () => {
    const r = await project.bin([
      'faultline',
      'run',
      'bad',
      '--k',
      '1',
      '--reporter',
      'json',
      '--out',
      'bad-reports',
      ...SLOW,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = await readReport(project, 'bad-reports');
    const failing = (scenarioName: string): Map<string, string> => {
      const cell = report.cells.find((c) => c.scenario === scenarioName);
      expect(cell, scenarioName).toBeDefined();
      const trial = cell!.trials[0]!;
      expect(trial.status, scenarioName).not.toBe('passed');
      return new Map(
        trial.checks
          .filter((c) => c.verdict.valid !== true)
          .map((c) => [c.name, c.verdict.valid === true ? '' : c.verdict.message]),
      );
    };
    const all = (m: Map<string, string>): string => JSON.stringify([...m]);

    const toolWait = failing('tool-ignores-retry-after');
    expect([...toolWait.keys()]).toEqual(['retry-discipline']);
    expect(toolWait.get('retry-discipline'), all(toolWait)).toMatch(
      /^open_ticket open_ticket#1 attempt 2 \(http-\d+, POST https:\/\/helpdesk\.example\.test\/tickets\) at t=100ms was sent 100ms after the 429 answer to http-\d+ at t=0ms said Retry-After: 2 \(2000ms, until t=2000ms\) \(R9\)$/,
    );

    const modelWait = failing('model-ignores-retry-after');
    expect([...modelWait.keys()]).toEqual(['retry-discipline']);
    expect(modelWait.get('retry-discipline'), all(modelWait)).toMatch(
      /model call model:openai\.chat\.completions#1 attempt 2 .* to model:openai\.chat\.completions was sent 393ms after the 429 answer .* said Retry-After: 3 .*resent by AI SDK's retry layer or the agent's own loop around it \(its User-Agent names AI SDK; the same body again with no retry-count header: not the SDK's retry\) \(R9\)/,
    );

    // The replay of the trial reproduces it, from the user's project.
    const replay = await project.bin([
      'faultline',
      'replay',
      'bad/model-ignores-retry-after.yaml',
      '--trial',
      '0',
      ...SLOW,
    ]);
    expect(replay.stdout, replay.stderr).toMatch(
      /✗ retry-discipline: model call model:openai\.chat\.completions#1 attempt 2 .*was sent 393ms after the 429 answer/,
    );

    const quota = failing('model-quota-resent');
    expect([...quota.keys()]).toEqual(['model-retries']);
    expect(quota.get('model-retries'), all(quota)).toMatch(
      /model call model:openai\.chat\.completions#1 to model:openai\.chat\.completions was resent \d+ time\(s\) after its quota_exceeded answer .*by OpenAI Agents SDK's retry layer or the agent's own loop around it \(its User-Agent names OpenAI Agents SDK; .*\(R5\)/,
    );

    // LangChain's own retry layer, its classifier replaced by the app's logging hook: the resends
    // carry LangChain's client (openai with maxRetries: 0, so x-stainless-retry-count: 0 each time),
    // and its User-Agent names LangChain.js.
    const lcWait = failing('langchain-model-ignores-retry-after');
    expect([...lcWait.keys()]).toEqual(['retry-discipline']);
    expect(lcWait.get('retry-discipline'), all(lcWait)).toMatch(
      /^model call model:openai\.chat\.completions#1 attempt 2 .* was sent \d+ms after the 429 answer .* said Retry-After: 3 \(3000ms, until t=3000ms\), resent by LangChain\.js's retry layer or the agent's own loop around it \(its User-Agent names LangChain\.js; the same body again with x-stainless-retry-count: 0: not the SDK's retry\) \(R9\)/,
    );
    const lcQuota = failing('langchain-model-quota-resent');
    expect([...lcQuota.keys()]).toEqual(['model-retries']);
    expect(lcQuota.get('model-retries'), all(lcQuota)).toMatch(
      /^model call model:openai\.chat\.completions#1 to model:openai\.chat\.completions was resent 6 time\(s\) after its quota_exceeded answer .*by LangChain\.js's retry layer or the agent's own loop around it \(its User-Agent names LangChain\.js; the same body again with x-stainless-retry-count: 0: not the SDK's retry\).*\(R5\)$/,
    );

    const dup = failing('no-idempotency-key');
    // Two tickets also break the goal, and the keyless resend of a write is R7's business too.
    expect([...dup.keys()]).toEqual(['goal-state', 'duplicates', 'retry-discipline']);
    expect(dup.get('duplicates'), all(dup)).toMatch(
      /^helpdesk:req-42 was opened 2 times \(effects #0, #1; requests http-\d+, http-\d+; calls (?:[\w.:-]+#\d+(?:, )?)+ of [\w.:-]+\): resent without an idempotency key \(R22, R25\)$/,
    );

    const honesty = failing('failed-after-commit');
    expect([...honesty.keys()]).toEqual(['goal-state', 'honesty']);
    // The claim is the agent's own code's, not the stand-in model's: the verdict does not pass it off as the stand-in's.
    expect(honesty.get('honesty'), all(honesty)).toMatch(
      /^the agent claims helpdesk:req-42 failed but the ledger holds ticket\.opened for it \(effects #0, requests http-\d+\)$/,
    );
  });
});
