/**
 * What the real agents' acceptance files share (issue 21; realAgentsAcceptance.test.ts runs the
 * correct agents, realAgentsDefects.test.ts the planted defects): the user's project outside the
 * repository, with faultline installed from the packed tarball beside the agents' SDKs, and the
 * agents, tool, service and scenarios written into it. The install is `peersProject`'s (the
 * tarball, the optional peers and these SDKs, one `npm install` per state of the sources, shared
 * with the package files); each file gets a project folder of its own over it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Consumer } from '../package/consumer.js';
import { fileProject, peersProject } from '../package/packageTest.js';
import { HELPDESK_SERVICE as SERVICE } from './helpdeskService.js';
import { parseJsonReport, type JsonReport } from '../../src/report/json.js';

/**
 * The team's fetch tool: an Idempotency-Key per operation, a 5 s timeout, up to \`tries\` tries,
 * Retry-After honoured, no resend of a quota error; its result for the model is a plain string
 * (\`error: ticket service answered 429 (quota_exceeded)\`). Each option off is a planted defect.
 */
const TOOL = `export interface Style { readonly withKey?: boolean; readonly honourRetryAfter?: boolean; readonly tries?: number }
export const SCHEMA = { type: 'object' as const, properties: { requestId: { type: 'string' as const }, subject: { type: 'string' as const } }, required: ['requestId', 'subject'], additionalProperties: false as const };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function openTicket(baseUrl: string, input: { requestId: string; subject: string }, style: Style = {}): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (style.withKey ?? true) headers['idempotency-key'] = 'open-' + input.requestId;
  let last = 'error: not sent';
  for (let attempt = 1; attempt <= (style.tries ?? 3); attempt++) {
    try {
      const res = await fetch(baseUrl + '/tickets', { method: 'POST', headers, body: JSON.stringify(input), signal: AbortSignal.timeout(5_000) });
      if (res.ok) return JSON.stringify(await res.json());
      const body = (await res.json().catch(() => ({}))) as { errors?: { code?: string }[]; error?: { code?: string; type?: string } };
      const code = body.errors?.[0]?.code ?? body.error?.code ?? body.error?.type ?? '';
      last = 'error: ticket service answered ' + res.status + (code ? ' (' + code + ')' : '');
      if (/quota/i.test(code) || (res.status < 500 && res.status !== 429)) return last;
      await sleep(style.honourRetryAfter === false ? 100 : Number(res.headers.get('retry-after') ?? '1') * 1000);
    } catch (error) {
      last = 'error: ' + String(error);
      await sleep(1000);
    }
  }
  return last;
}
`;

/** (a) The openai SDK, non-streamed; tool messages are the tool's plain strings. */
const OPENAI_AGENT = (style: string): string => `import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { openTicket, SCHEMA } from './tool.js';

export default defineHttpAgent(async ({ task, services, model }) => {
  const client = new OpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey });
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [{ type: 'function', function: { name: 'open_ticket', description: 'Open a ticket', parameters: SCHEMA } }];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: task }];
  for (let turn = 0; turn < 10; turn++) {
    const message = (await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools })).choices[0]!.message;
    messages.push(message);
    if (!message.tool_calls?.length) {
      const final = finalFromText(message.content ?? '');
      return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'unknown' };
    }
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      messages.push({ role: 'tool', tool_call_id: call.id, content: await openTicket(services['helpdesk']!.baseUrl, JSON.parse(call.function.arguments), ${style}) });
    }
  }
  return { outcome: 'failed', message: 'no final answer in 10 turns' };
});
`;

/**
 * (b) The AI SDK's \`streamText\`, its retries off and its own loop around it: \`careful\` waits out a
 * 429's Retry-After and tries a broken stream again; \`early\` resends 393 ms after any error.
 */
const AI_SDK_AGENT = (
  loop: 'careful' | 'early',
  style: string,
): string => `import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { openTicket, SCHEMA } from './tool.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default defineHttpAgent(async ({ task, services, model }) => {
  const openai = createOpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey });
  for (let attempt = 1; attempt <= 4; attempt++) {
    const result = streamText({
      model: openai.chat('gpt-4o-mini'),
      prompt: task,
      tools: { open_ticket: tool({ description: 'Open a ticket', inputSchema: jsonSchema<{ requestId: string; subject: string }>(SCHEMA), execute: async (args) => openTicket(services['helpdesk']!.baseUrl, args, ${style}) }) },
      stopWhen: stepCountIs(8),
      maxRetries: 0,
      onError: () => undefined,
    });
    let text = '';
    let failure: unknown;
    let broken = false;
    try {
      for await (const part of result.fullStream) {
        if (part.type === 'error') { broken = true; failure = part.error; }
        if (part.type === 'text-delta') text += part.text;
      }
    } catch (error) {
      broken = true;
      failure = error;
    }
    if (broken) {
      const e = failure as { statusCode?: number; responseHeaders?: Record<string, string> } | undefined;
      const retryAfter = e?.responseHeaders?.['retry-after'];
      await sleep('${loop}' === 'early' ? 393 : retryAfter === undefined ? 0 : Number(retryAfter) * 1000);
      continue;
    }
    const final = finalFromText(text);
    return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'unknown' };
  }
  return { outcome: 'failed', message: 'the model failed 4 times' };
});
`;

/**
 * (c) A streamed Agents SDK run, the client's retries off: \`careful\` runs again after a broken
 * stream and stops on a quota error; \`quota-loop\` runs again after any error, a quota one too;
 * \`says-failed\` reports the ticket failed whenever the tool saw an error, a lost answer included.
 */
const AGENTS_SDK_AGENT = (
  loop: 'careful' | 'quota-loop' | 'says-failed',
  style: string,
): string => `import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { openTicket, SCHEMA } from './tool.js';

const LOOP = '${loop}';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default defineHttpAgent(async ({ task, services, model }) => {
  setTracingDisabled(true);
  setDefaultOpenAIClient(new OpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey, maxRetries: 0 }) as never);
  setOpenAIAPI('chat_completions');
  let toolError = false;
  const openTicketTool = tool({
    name: 'open_ticket',
    description: 'Open a ticket',
    parameters: SCHEMA,
    strict: true,
    execute: async (args) => {
      const text = await openTicket(services['helpdesk']!.baseUrl, args, ${style});
      if (text.startsWith('error')) toolError = true;
      return text;
    },
  });
  const agent = new Agent({ name: 'helpdesk-agent', instructions: 'You open support tickets.', model: 'gpt-4o-mini', tools: [openTicketTool] });
  for (let attempt = 1; attempt <= 3; attempt++) {
    let failure: unknown;
    const result = await run(agent, task, { stream: true, maxTurns: 8 }).catch((error: unknown) => { failure = error; return undefined; });
    if (result) {
      try {
        for await (const event of result) void event;
        await result.completed;
        failure = result.error ?? undefined;
      } catch (error) {
        failure = error;
      }
    }
    if (failure !== undefined) {
      if (LOOP !== 'quota-loop' && /quota/i.test(String(failure))) return { outcome: 'failed', message: 'the model quota is exhausted' };
      await sleep(1000);
      continue;
    }
    if (LOOP === 'says-failed' && toolError) return { outcome: 'failed', message: 'could not open the ticket', claims: [{ subject: 'helpdesk:req-42', status: 'failed' }] };
    const final = finalFromText(String(result!.finalOutput ?? ''));
    return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'unknown' };
  }
  return { outcome: 'failed', message: 'the run failed 3 times' };
});
`;

/**
 * (d) A LangChain.js `createReactAgent` (LangGraph's prebuilt ReAct agent) on `ChatOpenAI`, written
 * as LangChain's docs show it: a `tool()` with a zod schema that throws on an error (so `ToolNode`
 * hands the model LangChain's own `Error: …\n Please fix your mistakes.`), tokens streamed with
 * `streamMode: 'messages'`. LangChain builds its openai client with `maxRetries: 0` and retries in
 * its own layer (`AsyncCaller`, six tries, Retry-After honoured, a quota error never resent).
 * `careful` runs the graph again after a broken stream and stops on a quota error; `logs` passes
 * its own `onFailedAttempt` to log each failure, which replaces LangChain's classifier: every
 * error is then resent on p-retry's backoff, a quota error too, and Retry-After is ignored.
 */
const LANGCHAIN_AGENT = (loop: 'careful' | 'logs'): string => `import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { defineHttpAgent, finalFromText } from 'faultline';
import { openTicket } from './tool.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default defineHttpAgent(async ({ task, services, model }) => {
  const openTicketTool = tool(
    async (input) => {
      const text = await openTicket(services['helpdesk']!.baseUrl, input);
      if (text.startsWith('error')) throw new Error(text);
      return text;
    },
    { name: 'open_ticket', description: 'Open a ticket', schema: z.object({ requestId: z.string(), subject: z.string() }) },
  );
  const llm = new ChatOpenAI({
    model: 'gpt-4o-mini',
    apiKey: model!.apiKey,
    configuration: { baseURL: model!.baseUrl },
    ${loop === 'logs' ? "onFailedAttempt: (error: Error) => console.warn('model call failed, retrying:', error.message)," : ''}
  });
  const agent = createReactAgent({ llm, tools: [openTicketTool] });
  let messages: unknown[] = [{ role: 'user', content: task }];
  for (let attempt = 1; attempt <= 4; attempt++) {
    let state: { messages: { content: unknown }[] } | undefined;
    try {
      const stream = await agent.stream({ messages } as never, { streamMode: ['values', 'messages'], recursionLimit: 16 });
      for await (const [mode, chunk] of stream) if (mode === 'values') state = chunk as never;
    } catch (error) {
      if (/quota/i.test(String(error))) return { outcome: 'failed', message: 'the model quota is exhausted' };
      await sleep(1000);
      continue;
    }
    const last = state!.messages.at(-1)!;
    const final = finalFromText(typeof last.content === 'string' ? last.content : JSON.stringify(last.content));
    return final.kind === 'final' ? { outcome: final.outcome, message: final.message, claims: final.claims } : { outcome: 'unknown' };
  }
  return { outcome: 'failed', message: 'the agent failed 4 times' };
});
`;

const CHAT = 'model:openai.chat.completions';
/** Every checker the rulebook configuration runs on a trial. */
export const CHECKERS = [
  'goal-state',
  'duplicates',
  'budget',
  'retry-discipline',
  'amplification',
  'model-retries',
  'honesty',
  'secrets',
  'process-cleanup',
];
const FAULTS = {
  off: '[]',
  lost: '[{ match: { tool: open_ticket, attempt: 1 }, fault: { kind: partial_write, lostAs: timeout } }]',
  'tool-429': '[{ match: { tool: open_ticket }, fault: { kind: rate_limit, retryAfter: 2 }, times: 1 }]',
  'tool-quota': '[{ match: { tool: open_ticket }, fault: { kind: quota_exceeded } }]',
  'model-429': `[{ match: { tool: ${CHAT}, call: 1 }, fault: { kind: rate_limit, retryAfter: 3 }, times: 1 }]`,
  'model-quota': `[{ match: { tool: ${CHAT} }, fault: { kind: quota_exceeded } }]`,
  // No tool named: a stream fault strikes only a streamed model answer. Once, on the first one.
  'stream-cut': '[{ fault: { kind: stream_cut, afterEvents: 2 }, times: 1 }]',
} as const;
type Faults = keyof typeof FAULTS;

/** What the goal expects under each fault: the ticket opened once, or (a quota) never, and the agent saying so. */
const GOAL: Record<Faults, string> = {
  off: '{ effects: { ticket.opened: 1 }, outcome: [completed] }',
  lost: '{ effects: { ticket.opened: 1 }, outcome: [completed] }',
  'tool-429': '{ effects: { ticket.opened: 1 }, outcome: [completed] }',
  'tool-quota': '{ effects: { ticket.opened: 0 }, outcome: [handoff] }',
  'model-429': '{ effects: { ticket.opened: 1 }, outcome: [completed] }',
  'model-quota': '{ effects: { ticket.opened: 0 }, outcome: [failed] }',
  'stream-cut': '{ effects: { ticket.opened: 1 }, outcome: [completed] }',
};

const scenario = (name: string, module: string, faults: Faults): string => `name: ${name}
services: [../helpdesk.service.ts]
model:
  api: openai
  plan:
    steps:
      - { tool: open_ticket, input: { requestId: req-42, subject: Printer on fire }, subject: helpdesk:req-42 }
faults: ${FAULTS[faults]}
agent:
  kind: http
  task: Open a ticket about the printer that is on fire.
  module: ../${module}
goal: ${GOAL[faults]}
`;

/** Each correct agent, and the faults it is run under. */
export const CORRECT: Record<string, { module: string; faults: readonly Faults[] }> = {
  openai: { module: 'openai.agent.ts', faults: ['off', 'lost', 'tool-429', 'tool-quota'] },
  'ai-sdk': { module: 'ai-sdk.agent.ts', faults: ['off', 'lost', 'tool-429', 'tool-quota', 'model-429', 'stream-cut'] },
  'agents-sdk': {
    module: 'agents-sdk.agent.ts',
    faults: ['off', 'lost', 'tool-429', 'tool-quota', 'model-quota', 'stream-cut'],
  },
  langchain: {
    module: 'langchain.agent.ts',
    faults: ['off', 'lost', 'tool-429', 'tool-quota', 'model-429', 'model-quota', 'stream-cut'],
  },
};

/** Each planted defect: the agent that carries it, the fault that exposes it. */
const DEFECTS = {
  'tool-ignores-retry-after': { module: 'openai-no-wait.agent.ts', faults: 'tool-429' },
  'model-ignores-retry-after': { module: 'ai-sdk-early.agent.ts', faults: 'model-429' },
  'model-quota-resent': { module: 'agents-sdk-quota-loop.agent.ts', faults: 'model-quota' },
  'no-idempotency-key': { module: 'ai-sdk-no-key.agent.ts', faults: 'lost' },
  'failed-after-commit': { module: 'agents-sdk-says-failed.agent.ts', faults: 'lost' },
  'langchain-model-ignores-retry-after': { module: 'langchain-logs.agent.ts', faults: 'model-429' },
  'langchain-model-quota-resent': { module: 'langchain-logs.agent.ts', faults: 'model-quota' },
} as const satisfies Record<string, { module: string; faults: Faults }>;

const FILES: Record<string, string> = {
  'helpdesk.service.ts': SERVICE,
  'tool.ts': TOOL,
  'openai.agent.ts': OPENAI_AGENT('{}'),
  'openai-no-wait.agent.ts': OPENAI_AGENT('{ honourRetryAfter: false }'),
  'ai-sdk.agent.ts': AI_SDK_AGENT('careful', '{}'),
  'ai-sdk-early.agent.ts': AI_SDK_AGENT('early', '{}'),
  'ai-sdk-no-key.agent.ts': AI_SDK_AGENT('careful', '{ withKey: false }'),
  'agents-sdk.agent.ts': AGENTS_SDK_AGENT('careful', '{}'),
  'agents-sdk-quota-loop.agent.ts': AGENTS_SDK_AGENT('quota-loop', '{}'),
  'agents-sdk-says-failed.agent.ts': AGENTS_SDK_AGENT('says-failed', '{ tries: 1 }'),
  'langchain.agent.ts': LANGCHAIN_AGENT('careful'),
  'langchain-logs.agent.ts': LANGCHAIN_AGENT('logs'),
};
for (const [agent, { module, faults }] of Object.entries(CORRECT))
  for (const f of faults) FILES[`good/${agent}-${f}.yaml`] = scenario(`${agent}-${f}`, module, f);
for (const [name, { module, faults }] of Object.entries(DEFECTS))
  FILES[`bad/${name}.yaml`] = scenario(name, module, faults);

/** SDKs, tsx and a worker per trial on a shared machine: more wall clock than the default watchdog allows. */
export const SLOW = ['--trial-timeout', '120000'];

/** The file's user project (made in a beforeAll, removed in an afterAll): the shared install, and every file above written into it. */
export const realAgentsProject = (): Consumer =>
  fileProject(async () => {
    const project = await peersProject();
    for (const [path, text] of Object.entries(FILES)) await project.write(path, text);
    return project;
  });

/** The JSON report a run wrote under `out` in the project, schema-checked. */
export const readReport = async (project: Consumer, out: string): Promise<JsonReport> =>
  parseJsonReport(await readFile(join(project.dir, out, 'faultline.json'), 'utf8'));
