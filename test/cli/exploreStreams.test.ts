/**
 * `faultline explore` on an agent that streams (the openai SDK's streamed Chat Completions): it
 * generates stream faults on the model route and finds the planted defect. A file of its own
 * beside explore.test.ts (its other searches share that file's project), so that neither runs long.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import type { Finished } from './faultline.js';
import { headerCommand, writtenFile } from './exploreOutput.js';
import { inProcess } from './inProcess.js';
import { ANSWER_OR_TOOL_CALLS } from './openaiToolLoop.js';
import { userProject } from './userProject.js';
import { httpAgentOpensTicket, OPEN_TICKET_PLAN } from './ticketScenario.js';

const SDK_TOOLS = fileURLToPath(new URL('../../scenarios/examples/sdk-agents/code/helpdeskTools.ts', import.meta.url));
const HELPDESK = fileURLToPath(new URL('../../scenarios/examples/helpdesk/code/helpdesk.service.ts', import.meta.url));

/** An agent on the openai SDK's streamed Chat Completions, with a planted defect: a stream that broke is taken for a finished task. */
const STREAM_AGENT = `import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from '${SDK_TOOLS}';

export default defineHttpAgent(async ({ task, services, model }) => {
  const client = new OpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey, maxRetries: 0 });
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'open_ticket', description: OPEN_TICKET_DESCRIPTION, parameters: OPEN_TICKET_SCHEMA } },
  ];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: task }];
  for (let turn = 0; turn < 8; turn++) {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await client.chat.completions.stream({ model: 'gpt-4o-mini', messages, tools }).finalChatCompletion();
    } catch (error) {
      if (error instanceof OpenAI.APIError && error.status !== undefined) return { outcome: 'failed', message: String(error) };
      // The defect: a broken stream is taken for the end of a task that went well.
      return { outcome: 'completed', claims: [{ subject: 'helpdesk:req-42', status: 'succeeded' }] };
    }
${ANSWER_OR_TOOL_CALLS}
      messages.push({ role: 'tool', tool_call_id: call.id, content: await runTool(services['helpdesk']!.baseUrl, call.function.name, JSON.parse(call.function.arguments)) });
    }
  }
  return { outcome: 'failed', message: 'no final answer in 8 turns' };
});
`;

const STREAMED = `name: streamed-ticket
services: [${HELPDESK}]
model:
  api: openai
${OPEN_TICKET_PLAN}${httpAgentOpensTicket('../stream.agent.ts')}`;

let project: Awaited<ReturnType<typeof userProject>>;

/** The same scenario with its agent killed after its first tool request (issue 45's crash.agent), and no fault. */
const CRASHED = STREAMED.replace('name: streamed-ticket', 'name: crashed-stream').replace(
  'model:\n',
  'crash:\n  agent: { afterCall: 1 }\nmodel:\n',
);

beforeAll(async () => {
  project = await userProject(
    'explore-streams',
    { 'stream.agent.ts': STREAM_AGENT, 'scenarios/streamed.yaml': STREAMED },
    ['openai'],
  );
  await writeFile(join(project.path, 'scenarios/crashed.yaml'), CRASHED);
});

afterAll(() => project.cleanup());

const run = (args: readonly string[]): Promise<Finished> => inProcess(args, { cwd: project.path });

describe('faultline explore', () => {
  it('generates stream faults on the model routes an agent streams, and finds the agent that takes a broken stream for success', async () => {
    // A quarter of the rules drawn on a model route are now the model's own mistakes (issue 45):
    // 20 plans no longer held a broken stream that breaks this agent, 40 do.
    const args = ['explore', 'scenarios/streamed.yaml', '--runs', '40', '--check', 'honesty', '--out', 'streamed'];
    const r = await run(args);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(r.stdout).toMatch(
      /^✗ streamed-ticket × rulebook: 40 plans, \d+ failure class(?:es)?: [^\n]*honesty\/R\d+[^\n]*; stream faults on model:openai\.chat\.completions$/m,
    );
    expect(r.stdout).toMatch(
      /^✗ streamed-ticket × rulebook: honesty\/R\d+ at plan \d+; shrunk in \d+ steps to 1 fault rule$/m,
    );
    expect(r.stdout).toMatch(
      /honesty: the agent claims helpdesk:req-42 succeeded but the ledger holds no effect for it/,
    );
    const file = writtenFile(r);
    const scenario = parse(await readFile(join(project.path, file), 'utf8')) as {
      faults: { match: { tool?: string }; fault: { kind: string } }[];
    };
    expect(scenario.faults).toHaveLength(1);
    expect(scenario.faults[0]!.match.tool).toBe('model:openai.chat.completions');
    expect(scenario.faults[0]!.fault.kind).toMatch(/^stream_(cut|stall|malformed)$/);
    expect(r.stdout).toMatch(
      /fired in the failing trial: faults\[0\] \(model:openai\.chat\.completions, stream_\w+\) [1-9]\d*×/,
    );
    // Deterministic per seed: the same plans, the same files.
    await rm(join(project.path, 'streamed'), { recursive: true });
    const again = await run(args);
    expect(again.stdout).toBe(r.stdout);
    const reproduce = await run(headerCommand(await readFile(join(project.path, file), 'utf8'), 'reproduce'));
    expect(reproduce.code, reproduce.stdout).toBe(1);
    expect(reproduce.stdout).toMatch(/honesty/);
  });
});

describe('crash.agent on an agent that streams', () => {
  // The restart's timers were installed over the trial's, whose zero delays then went through the
  // trial's guard, dead since the kill: the SDK's stream helper starts on a setTimeout(0), so the
  // restart never sent a request and every trial ended hung at the 10 s watchdog (explore
  // --crash-only took 110 s for 3 plans and called the agent's crash handling broken).
  it('restarts it, streams again and passes: the key it sends keeps one ticket; explore --crash-only finds nothing', async () => {
    const r = await run([
      'run',
      'scenarios/crashed.yaml',
      '--k',
      '2',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--out',
      'crashed',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ +✓ crashed-stream +1\.000 .* 2\/2 /m);
    const report = parseJsonReport(await readFile(join(project.path, 'crashed/faultline.json'), 'utf8'));
    for (const trial of report.cells[0]!.trials) {
      expect(trial.end.kind).toBe('completed');
      expect(trial.history?.filter((e) => e.type === 'agent_restart')).toHaveLength(1);
    }
    const search = await run(['explore', 'scenarios/crashed.yaml', '--crash-only', '--runs', '3', '--out', 'searched']);
    expect(search.code, search.stdout + search.stderr).toBe(0);
    expect(search.stdout).toMatch(/✓ crashed-stream × rulebook: 3 plans, none failed/);
  });
});
