/**
 * Issue 21's acceptance: a user's project outside the repository, with faultline installed from
 * the packed tarball, runs four real agents through the installed binary: an openai-SDK agent
 * whose tool messages are plain error strings, an AI SDK `streamText` agent, a streamed Agents
 * SDK run and a LangChain.js `createReactAgent` (the agents and the project: ./realAgents.ts).
 * Their correct variants hold every checker with faults off and under a lost answer, a 429 with
 * Retry-After on the tool, a quota error and a stream cut (this file); each planted defect is
 * caught by the checker that owns it, with evidence naming the layer at fault
 * (realAgentsDefects.test.ts: the two runs in two files, so two forks run them at once). The openai-SDK agent does
 * not stream, so the stream cut (a fault only a streamed answer can meet) is the streaming agents'.
 * LangChain.js is the 1.x line that still runs on Node 20: `@langchain/openai` 1.5.8 (1.5.9 on moves to
 * openai 7 and Node 22), `@langchain/core` 1.4.0, `@langchain/langgraph` 1.7.3.
 */
import { describe, expect, it } from 'vitest';
import { CHECKERS, CORRECT, readReport, realAgentsProject, SLOW } from './realAgents.js';

const project = realAgentsProject();

describe('real agents from the packed tarball, through the installed CLI', { timeout: 1_800_000 }, () => {
  it('the correct openai-SDK, streamText, streamed Agents SDK and LangChain.js agents pass every checker with faults off and on', async () => {
    const r = await project.npx([
      'faultline',
      'run',
      'good',
      '--k',
      '2',
      '--reporter',
      'json',
      '--out',
      'good-reports',
      ...SLOW,
    ]);
    const report = await readReport(project, 'good-reports');
    const expected = Object.entries(CORRECT).flatMap(([agent, { faults }]) => faults.map((f) => `${agent}-${f}`));
    expect(report.cells.map((c) => c.scenario).sort()).toEqual(expected.sort());
    for (const cell of report.cells) {
      expect(cell.metrics.checkFailures, cell.scenario).toEqual(Object.fromEntries(CHECKERS.map((name) => [name, 0])));
      expect([cell.status, cell.metrics.trials, cell.metrics.successes], cell.scenario).toEqual(['passed', 2, 2]);
      // Faults on means the fault happened, in every trial: no cell passes with its fault unfired.
      const fired = cell.metrics.coverage.map((c) => c.firings >= c.trials && c.trials === 2);
      expect(fired, `${cell.scenario}: ${JSON.stringify(cell.metrics.coverage)}`).toEqual(
        cell.scenario.endsWith('-off') ? [] : [true],
      );
    }
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});
