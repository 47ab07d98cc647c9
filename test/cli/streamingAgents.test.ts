/**
 * Streamed model answers through the CLI, from a temp project outside the repo: an agent on the
 * AI SDK's `streamText` and one on the Agents SDK's streamed run, against the scripted model,
 * with a stream cut on their first model answer (the first run through the real binary, the
 * other runs and the replays in process, `./inProcess.ts`: each trial still runs on a worker). The careful variants see the
 * broken stream and try again; the naive one takes the cut-short stream as the answer and
 * the goal checker catches it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';
import { httpAgentOpensTicket, OPEN_TICKET_PLAN } from './ticketScenario.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));
const SERVICE = join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts');
const TOOLS = join(EXAMPLES, 'sdk-agents/code/helpdeskTools.ts');

const aiSdkAgent = (careful: boolean): string => `
import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from '${TOOLS}';

export default defineHttpAgent(async ({ task, services, model }) => {
  const openai = createOpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey });
  for (let attempt = 1; attempt <= 3; attempt++) {
    const result = streamText({
      model: openai.chat('gpt-4o-mini'),
      prompt: task,
      tools: {
        open_ticket: tool({
          description: OPEN_TICKET_DESCRIPTION,
          inputSchema: jsonSchema<{ requestId: string; subject: string }>(OPEN_TICKET_SCHEMA),
          execute: async (args) => runTool(services['helpdesk']!.baseUrl, 'open_ticket', args),
        }),
      },
      stopWhen: stepCountIs(8),
      maxRetries: 0,
      onError: () => undefined,
    });
    let text = '';
    let broken = false;
    // A broken stream shows up as an \`error\` part, or as a throw from the stream itself.
    try {
      for await (const part of result.fullStream) {
        if (part.type === 'error') broken = true;
        if (part.type === 'text-delta') text += part.text;
      }
    } catch {
      broken = true;
    }
    if (broken && ${careful ? 'true' : 'false'}) continue;
    const final = finalFromText(text);
    return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'unknown' };
  }
  return { outcome: 'failed', message: 'the model stream broke 3 times' };
});
`;

const AGENTS_SDK_AGENT = `
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from '${TOOLS}';

export default defineHttpAgent(async ({ task, services, model }) => {
  setTracingDisabled(true);
  setDefaultOpenAIClient(new OpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey, maxRetries: 0 }) as never);
  setOpenAIAPI('chat_completions');
  const openTicket = tool({ name: 'open_ticket', description: OPEN_TICKET_DESCRIPTION, parameters: OPEN_TICKET_SCHEMA, strict: true, execute: async (args) => runTool(services['helpdesk']!.baseUrl, 'open_ticket', args) });
  const agent = new Agent({ name: 'helpdesk-agent', instructions: 'You open support tickets.', model: 'gpt-4o-mini', tools: [openTicket] });
  for (let attempt = 1; attempt <= 3; attempt++) {
    const result = await run(agent, task, { stream: true, maxTurns: 8 });
    try {
      for await (const event of result) void event;
      await result.completed;
    } catch {
      continue;
    }
    if (result.error) continue;
    const final = finalFromText(String(result.finalOutput ?? ''));
    return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'unknown' };
  }
  return { outcome: 'failed', message: 'the streamed run broke 3 times' };
});
`;

const scenario = (name: string, module: string, adapter = 'msw'): string => `name: ${name}
services: [${SERVICE}]
http: { adapter: ${adapter} }
model:
  api: openai
${OPEN_TICKET_PLAN}# No tool named: a stream fault strikes only a streamed model answer. Once, on the first one.
faults:
  - fault: { kind: stream_cut, afterEvents: 2 }
    times: 1
${httpAgentOpensTicket(module)}`;

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject(
    'streaming',
    {
      'careful.agent.ts': aiSdkAgent(true),
      'naive.agent.ts': aiSdkAgent(false),
      'agents.agent.ts': AGENTS_SDK_AGENT,
      'stream-cut.yaml': scenario('ai-sdk-stream-cut', './careful.agent.ts'),
      'agents-stream-cut.yaml': scenario('agents-sdk-stream-cut', './agents.agent.ts'),
      'nock/agents-stream-cut.yaml': scenario('agents-sdk-stream-cut-nock', '../agents.agent.ts', 'nock'),
      'naive/stream-cut.yaml': scenario('naive-stream-cut', '../naive.agent.ts'),
    },
    ['ai', '@ai-sdk/openai', '@openai/agents', 'openai'],
  );
});
afterAll(() => project.cleanup());

describe('streamed model answers under a stream cut, through the CLI', () => {
  it('streamText and a streamed Agents SDK run that retry a broken stream hold every gate', async () => {
    const r = await faultline(['run', 'stream-cut.yaml', 'agents-stream-cut.yaml', '--k', '2'], { cwd: project.path });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('✓ rulebook × ai-sdk-stream-cut: 2/2 passed');
    expect(r.stderr).toContain('✓ rulebook × agents-sdk-stream-cut: 2/2 passed');
    const replay = await inProcess(['replay', 'stream-cut.yaml', '--trial', '0'], { cwd: project.path });
    expect(replay.stdout).toMatch(/fault stream_cut\(afterEvents=2\) on http-1/);
    expect(replay.stdout).toMatch(
      /response to http-1: error 200 "the connection dropped mid-stream after 2 of \d+ events \(stream_cut\)" \[stream: 2 of \d+ events\]/,
    );
    expect(replay.stdout).toMatch(/agent ended: completed/);
  });

  // The Agents SDK keeps its client (and the fetch it captured) from one trial to the next in a
  // worker: under nock that once sent later trials through a torn-down interception (an uncaught
  // ECONNRESET, or a trial that hung with no request recorded).
  it('under nock too: every trial of a streamed Agents SDK run meets its cut and holds every gate, nothing escapes the trials', async () => {
    const r = await inProcess(['run', 'nock/agents-stream-cut.yaml', '--k', '4', '--workers', '1'], {
      cwd: project.path,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('✓ rulebook × agents-sdk-stream-cut-nock: 4/4 passed');
    expect(r.stdout).toMatch(
      /agents-sdk-stream-cut-nock\s+rulebook\s+faults\[0\]\s+any tool, stream_cut, times 1\s+4\/4 trials/,
    );
    expect(r.stdout + r.stderr).not.toMatch(/ECONNRESET|uncaught|crashed/i);
  });

  it('an agent that takes a cut-short stream for the answer fails the goal, and the replay shows the cut', async () => {
    // --workers 0: the verdicts are the claim, not isolation (the binary run uses a worker); spares a worker's start.
    const r = await inProcess(['run', 'naive/stream-cut.yaml', '--k', '1', '--workers', '0'], { cwd: project.path });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/goal-state: ticket\.opened happened 0 times, expected 1/);
    expect(r.stdout).not.toMatch(/crashed/);
    const replay = await inProcess(['replay', 'naive/stream-cut.yaml', '--trial', '0'], { cwd: project.path });
    expect(replay.stdout).toMatch(/fault stream_cut\(afterEvents=2\) on http-1/);
  });
});
