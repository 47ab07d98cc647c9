/**
 * Tool-calling agents on each official SDK's streaming call, for the msw and nock streaming
 * tests: each places one order (the model asks for create_order, the agent runs it against
 * the shop's REST API and sends the result back), trying a failed model call up to 3 times.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import {
  Agent,
  run,
  setDefaultOpenAIClient,
  setOpenAIAPI,
  setTracingDisabled,
  tool as agentTool,
} from '@openai/agents';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { ScriptedModel } from '../../src/model/ScriptedModel.js';
import { eventsOf, type ClockRun, type HistoryEvent, type VirtualClock } from '../../src/core/index.js';
import type { Fault } from '../../src/faults/fault.js';
import { createHttpTrial, type HttpTrial } from '../../src/faults/http/createHttpTrial.js';
import type { HttpFaults } from '../../src/faults/http/HttpFaults.js';
import { anthropicService, openaiService } from '../../src/model/api/modelServices.js';
import { ordersRoutes } from '../../src/faults/http/toolRoutes.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { ORDER, SHOP } from './support.js';

export const CHAT = 'model:openai.chat.completions';
export const RESPONSES = 'model:openai.responses';
export const MESSAGES = 'model:anthropic.messages';
const TASK = 'Order one book';
/** The agent's own limit on one streamed model answer: past it, it aborts the request and tries again. */
export const STREAM_TIMEOUT_MS = 5_000;

function trial(plan: FaultPlan): HttpTrial {
  const model = new ScriptedModel({
    steps: [{ tool: 'create_order', input: ORDER, subject: 'orders:ref-1' }],
    finalMessage: 'Order placed.',
  });
  return createHttpTrial({
    plan,
    serviceNames: ['orders'],
    services: (world) => [
      openaiService(model),
      anthropicService(model),
      { baseUrl: SHOP, routes: ordersRoutes(world) },
    ],
  });
}

/** The agent's tool: the shop's REST API, keyed by the order's business reference so a resend cannot order twice. */
async function createOrder(input: unknown): Promise<string> {
  const order = input as { clientReference: string };
  const res = await fetch(`${SHOP}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': order.clientReference },
    body: JSON.stringify(input),
    signal: AbortSignal.timeout(10_000),
  });
  return res.text();
}

const ORDER_SCHEMA: {
  type: 'object';
  properties: Record<string, { type: 'string' | 'number' }>;
  required: string[];
  additionalProperties: false;
} = {
  type: 'object',
  properties: {
    clientReference: { type: 'string' },
    item: { type: 'string' },
    quantity: { type: 'number' },
    amountCents: { type: 'number' },
  },
  required: ['clientReference', 'item', 'quantity', 'amountCents'],
  additionalProperties: false,
};

/** The agent's own loop around one model call: up to three tries, each failure noted. */
async function tries<T>(seen: string[], call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(AbortSignal.timeout(STREAM_TIMEOUT_MS));
    } catch (error) {
      const cause = (error as Error).cause;
      seen.push(
        `${(error as Error).name}: ${(error as Error).message}${cause instanceof Error ? ` (${cause.message})` : ''}`,
      );
      if (attempt === 3) throw error;
    }
  }
}

/** What an agent ends with: its final text read back, and every failure it saw on the way. */
export interface AgentRun {
  readonly final: string;
  readonly seen: readonly string[];
}

async function openaiChatAgent(): Promise<AgentRun> {
  const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
  const seen: string[] = [];
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'create_order', description: 'Create an order', parameters: ORDER_SCHEMA } },
  ];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: TASK }];
  for (let turn = 0; turn < 4; turn++) {
    const reply = await tries(seen, async (signal) => {
      const stream = await client.chat.completions.create(
        { model: 'gpt-4o', messages, tools, stream: true, stream_options: { include_usage: true } },
        { signal },
      );
      let content = '';
      let finish: string | null = null;
      const calls: { id: string; name: string; arguments: string }[] = [];
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (!choice) continue;
        content += choice.delta.content ?? '';
        for (const d of choice.delta.tool_calls ?? []) {
          const call = (calls[d.index] ??= { id: '', name: '', arguments: '' });
          call.id ||= d.id ?? '';
          call.name ||= d.function?.name ?? '';
          call.arguments += d.function?.arguments ?? '';
        }
        finish = choice.finish_reason ?? finish;
      }
      // An aborted stream ends quietly in the openai SDK: no finish_reason is the only sign.
      if (finish === null) throw new Error('the stream ended without a finish_reason');
      return { content, calls };
    });
    if (reply.calls.length === 0) return { final: reply.content, seen };
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: reply.calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    });
    for (const c of reply.calls)
      messages.push({ role: 'tool', tool_call_id: c.id, content: await createOrder(JSON.parse(c.arguments)) });
  }
  throw new Error('no final answer');
}

async function openaiResponsesAgent(): Promise<AgentRun> {
  const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
  const seen: string[] = [];
  const tools: OpenAI.Responses.Tool[] = [
    { type: 'function', name: 'create_order', description: 'Create an order', parameters: ORDER_SCHEMA, strict: true },
  ];
  const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: TASK }];
  for (let turn = 0; turn < 4; turn++) {
    const response = await tries(seen, (signal) =>
      client.responses.stream({ model: 'gpt-4o', input, tools }, { signal }).finalResponse(),
    );
    const calls = response.output.flatMap((o) => (o.type === 'function_call' ? [o] : []));
    if (calls.length === 0) return { final: response.output_text, seen };
    for (const c of calls) {
      input.push({ type: 'function_call', call_id: c.call_id, name: c.name, arguments: c.arguments });
      input.push({
        type: 'function_call_output',
        call_id: c.call_id,
        output: await createOrder(JSON.parse(c.arguments)),
      });
    }
  }
  throw new Error('no final answer');
}

async function anthropicAgent(): Promise<AgentRun> {
  const client = new Anthropic({ apiKey: 'sk-test', maxRetries: 0 });
  const seen: string[] = [];
  const tools: Anthropic.Tool[] = [
    {
      name: 'create_order',
      description: 'Create an order',
      input_schema: ORDER_SCHEMA as unknown as Anthropic.Tool.InputSchema,
    },
  ];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: TASK }];
  for (let turn = 0; turn < 4; turn++) {
    const reply = await tries(seen, (signal) =>
      client.messages
        .stream({ model: 'claude-sonnet-5', max_tokens: 1024, messages, tools }, { signal })
        .finalMessage(),
    );
    messages.push({ role: 'assistant', content: reply.content });
    const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    if (uses.length === 0) return { final: reply.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), seen };
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const u of uses) results.push({ type: 'tool_result', tool_use_id: u.id, content: await createOrder(u.input) });
    messages.push({ role: 'user', content: results });
  }
  throw new Error('no final answer');
}

/** `streamText` reports a broken stream as an `error` part, not a throw: the agent reads its full stream and treats one as a failure. */
function aiSdkAgent(api: 'chat' | 'responses'): () => Promise<AgentRun> {
  return async () => {
    const seen: string[] = [];
    const openai = createOpenAI({ apiKey: 'sk-test' });
    const text = await tries(seen, async (signal) => {
      const result = streamText({
        model: api === 'chat' ? openai.chat('gpt-4o') : openai.responses('gpt-4o'),
        prompt: TASK,
        tools: {
          create_order: tool({
            description: 'Create an order',
            inputSchema: jsonSchema<Record<string, unknown>>(ORDER_SCHEMA),
            execute: createOrder,
          }),
        },
        stopWhen: stepCountIs(4),
        maxRetries: 0,
        abortSignal: signal,
        // Read from the full stream below; the default logs every error part to the console.
        onError: () => undefined,
      });
      let out = '';
      for await (const part of result.fullStream) {
        if (part.type === 'error')
          throw part.error instanceof Error ? part.error : new Error(JSON.stringify(part.error));
        if (part.type === 'abort') throw new Error('the stream was aborted');
        if (part.type === 'text-delta') out += part.text;
        if (part.type === 'finish-step' && part.finishReason !== 'stop' && part.finishReason !== 'tool-calls')
          throw new Error(`a step finished with ${part.finishReason}`);
      }
      return out;
    });
    return { final: text, seen };
  };
}

async function agentsSdkAgent(): Promise<AgentRun> {
  setTracingDisabled(true);
  setDefaultOpenAIClient(
    new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }) as unknown as Parameters<typeof setDefaultOpenAIClient>[0],
  );
  setOpenAIAPI('chat_completions');
  const seen: string[] = [];
  const createOrderTool = agentTool({
    name: 'create_order',
    description: 'Create an order',
    parameters: ORDER_SCHEMA,
    strict: true,
    execute: createOrder,
  });
  const agent = new Agent({
    name: 'shop-agent',
    instructions: 'You place orders.',
    model: 'gpt-4o',
    tools: [createOrderTool],
  });
  const final = await tries(seen, async (signal) => {
    const result = await run(agent, TASK, { stream: true, maxTurns: 6, signal });
    for await (const event of result) void event;
    await result.completed;
    if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
    // An aborted streamed run ends quietly: the agent's own timeout is the only sign.
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('the run was aborted');
    return String(result.finalOutput ?? '');
  });
  return { final, seen };
}

export interface Case {
  readonly name: string;
  readonly endpoint: string;
  readonly agent: () => Promise<AgentRun>;
}

export const CASES: readonly Case[] = [
  { name: 'openai chat.completions.create({ stream: true })', endpoint: CHAT, agent: openaiChatAgent },
  { name: 'openai responses.stream()', endpoint: RESPONSES, agent: openaiResponsesAgent },
  { name: '@anthropic-ai/sdk messages.stream()', endpoint: MESSAGES, agent: anthropicAgent },
  { name: 'AI SDK streamText on Chat Completions', endpoint: CHAT, agent: aiSdkAgent('chat') },
  { name: 'AI SDK streamText on Responses', endpoint: RESPONSES, agent: aiSdkAgent('responses') },
  { name: '@openai/agents run(…, { stream: true })', endpoint: CHAT, agent: agentsSdkAgent },
];

export const responsesOf = (events: readonly HistoryEvent[], endpoint: string) =>
  eventsOf(events, 'response').filter((r) => r.tool === endpoint);
export const orders = (t: HttpTrial) => t.world.ledger.effects.filter((e) => e.effect === 'order.created').length;

export type Runner = <T>(faults: HttpFaults, clock: VirtualClock, body: () => Promise<T>) => Promise<ClockRun<T>>;

/** One trial of `c`'s agent through `runner` (msw or nock), `fault` on its first model request only. */
export async function play(runner: Runner, c: Case, fault?: Fault) {
  const t = trial(fault ? [{ match: { tool: c.endpoint }, fault, times: 1 }] : []);
  const result = await runner(t.faults, t.clock, c.agent);
  if (result.kind !== 'settled')
    throw new Error(`the agent did not finish: ${result.kind} ${result.kind === 'threw' ? String(result.error) : ''}`);
  return { t, run: result.value, responses: responsesOf(t.history.events, c.endpoint) };
}
