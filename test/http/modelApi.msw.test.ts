import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/ScriptedModel.js';
import { modelCallLoads, modelRetries } from '../../src/checks/modelRetries.js';
import type { TrialRecord } from '../../src/checks/record.js';
import { History, Rng, VirtualClock, type HistoryEvent } from '../../src/core/index.js';
import { HttpFaults } from '../../src/faults/http/HttpFaults.js';
import { finalFromText } from '../../src/model/api/conversation.js';
import { anthropicService, openaiService } from '../../src/model/api/modelServices.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { ordersRoutes } from '../../src/faults/http/toolRoutes.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { createWorld } from '../../src/world/createWorld.js';
import type { World } from '../../src/world/World.js';
import { ORDER, SHOP, START } from './support.js';

const CHAT = 'model:openai.chat.completions';

function trial(plan: FaultPlan) {
  const clock = new VirtualClock(START);
  const history = new History(clock);
  const world = createWorld(clock, {}, ['orders']);
  const model = new ScriptedModel({
    steps: [{ tool: 'create_order', input: ORDER, subject: 'orders:ref-1' }],
    finalMessage: 'Order placed.',
  });
  const faults = new HttpFaults({
    services: [openaiService(model), anthropicService(model), { baseUrl: SHOP, routes: ordersRoutes(world) }],
    plan,
    clock,
    rng: new Rng(9).fork('http'),
    history,
    world,
  });
  return { clock, history, world, faults };
}

function record(history: History, world: World): TrialRecord {
  return {
    scenario: 'model-api',
    config: 'sdk-default',
    trialIndex: 0,
    seed: 9,
    history: history.events,
    snapshot: world.snapshot(),
    end: { kind: 'agent_ended', outcome: 'failed' },
  };
}

const expectations = (maxDeliveriesPerOperation?: number) => ({
  secrets: [],
  budget: {
    maxTurns: 5,
    maxToolCalls: 5,
    maxAttemptsPerCall: 3,
    deadlineMs: 600_000,
    ...(maxDeliveriesPerOperation === undefined ? {} : { maxDeliveriesPerOperation }),
  },
});

const ask = (client: OpenAI) =>
  client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Order one book' }] });
const errorsOf = (events: readonly HistoryEvent[]) =>
  events.flatMap((e) =>
    e.type === 'model_error' ? [{ call: e.call, attempt: e.attempt, kind: e.error.kind, status: e.error.status }] : [],
  );

describe('the model API under fault, through the official SDKs', () => {
  it('OpenAI with its default maxRetries sends 3 requests for one call under a persistent 429; the history shows 3 deliveries of 1 logical call', async () => {
    const { clock, history, world, faults } = trial([{ match: { tool: CHAT }, fault: { kind: 'rate_limit' } }]);
    const run = await runWithMsw(faults, clock, () =>
      ask(new OpenAI({ apiKey: 'sk-test' })).catch(
        (e: Error & { status?: number }) => `${e.constructor.name} ${e.status}`,
      ),
    );
    expect(run.kind === 'settled' && run.value).toBe('RateLimitError 429');
    expect(
      modelCallLoads(history.events).map(({ call, endpoint, requests }) => ({ call, endpoint, requests })),
    ).toEqual([{ call: `${CHAT}#1`, endpoint: CHAT, requests: 3 }]);
    expect(errorsOf(history.events)).toEqual(
      [1, 2, 3].map((attempt) => ({ call: `${CHAT}#1`, attempt, kind: 'rate_limit', status: 429 })),
    );
    // Not one tool event: a model-API 429 is not a tool failure (R3).
    expect(history.events.filter((e) => 'tool' in e && !String(e.tool).startsWith('model:'))).toEqual([]);

    const verdict = modelRetries.check(record(history, world), expectations(1));
    expect(verdict).toEqual({
      valid: false,
      message: `model call ${CHAT}#1 sent 3 requests to ${CHAT} (limit 1): the SDK retried below the agent; retry at one layer only (R10)`,
      evidence: [
        {
          rule: 'R10',
          call: `${CHAT}#1`,
          endpoint: CHAT,
          requests: 3,
          requestIds: ['http-1', 'http-2', 'http-3'],
          limit: 1,
        },
      ],
    });
  });

  it('the SDK retries a quota-exceeded 429 as well (the R5 hazard), and model-retries flags it', async () => {
    const { clock, history, world, faults } = trial([{ match: { tool: CHAT }, fault: { kind: 'quota_exceeded' } }]);
    const run = await runWithMsw(faults, clock, () =>
      ask(new OpenAI({ apiKey: 'sk-test' })).catch((e: Error & { code?: string }) => `${e.constructor.name} ${e.code}`),
    );
    expect(run.kind === 'settled' && run.value).toBe('RateLimitError insufficient_quota');
    expect(errorsOf(history.events).map((e) => e.kind)).toEqual(['quota_exceeded', 'quota_exceeded', 'quota_exceeded']);

    const verdict = modelRetries.check(record(history, world), expectations());
    expect(verdict.valid).toBe(false);
    expect(verdict.valid === false && verdict.message).toBe(
      `model call ${CHAT}#1 to ${CHAT} was resent 2 time(s) after its quota_exceeded answer to http-1 at t=0ms (http-2 by the SDK's own retry (x-stainless-retry-count: 1), http-3 by the SDK's own retry (x-stainless-retry-count: 2)): waiting does not help an exhausted quota; stop and hand over to a person (R5)`,
    );
  });

  it('with maxRetries: 0 the quota answer is final, and model-retries passes', async () => {
    const { clock, history, world, faults } = trial([{ match: { tool: CHAT }, fault: { kind: 'quota_exceeded' } }]);
    await runWithMsw(faults, clock, () => ask(new OpenAI({ apiKey: 'sk-test', maxRetries: 0 })).catch(() => null));
    expect(modelCallLoads(history.events).map((l) => l.requests)).toEqual([1]);
    expect(modelRetries.check(record(history, world), expectations(1))).toEqual({ valid: true });
  });

  it('Anthropic: a persistent 529 is retried twice and surfaces as OverloadedError', async () => {
    const { clock, history, faults } = trial([
      { match: { tool: 'model:anthropic.messages' }, fault: { kind: 'unavailable', status: 529 } },
    ]);
    const run = await runWithMsw(faults, clock, () =>
      new Anthropic({ apiKey: 'sk-ant-test' }).messages
        .create({ model: 'claude-scripted', max_tokens: 256, messages: [{ role: 'user', content: 'Order one book' }] })
        .catch((e: Error & { status?: number }) => `${e.constructor.name} ${e.status}`),
    );
    expect(run.kind === 'settled' && run.value).toBe('OverloadedError 529');
    expect(errorsOf(history.events).map((e) => `${e.attempt}:${e.kind}:${e.status}`)).toEqual([
      '1:unavailable:529',
      '2:unavailable:529',
      '3:unavailable:529',
    ]);
  });

  it('OpenAI Responses and Anthropic Messages answer from the scripted model once the fault passes', async () => {
    const { clock, history, faults } = trial([
      {
        match: { attempt: 1, tool: ['model:openai.responses', 'model:anthropic.messages'] },
        fault: { kind: 'unavailable', status: 503 },
      },
    ]);
    const run = await runWithMsw(faults, clock, async () => {
      const responses = await new OpenAI({ apiKey: 'sk-test' }).responses.create({
        model: 'gpt-4o',
        input: 'Order one book',
      });
      const messages = await new Anthropic({ apiKey: 'sk-ant-test' }).messages.create({
        model: 'claude-scripted',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'Order one book' }],
      });
      return { responses: responses.output, messages: messages.content };
    });
    expect(run.kind === 'settled' && run.value).toEqual({
      responses: [
        {
          type: 'function_call',
          id: 'fc-1',
          call_id: 'call-1',
          name: 'create_order',
          arguments: JSON.stringify(ORDER),
          status: 'completed',
        },
      ],
      messages: [{ type: 'tool_use', id: 'toolu-1', name: 'create_order', input: ORDER }],
    });
    expect(errorsOf(history.events).map((e) => `${e.call}:${e.attempt}:${e.status}`)).toEqual([
      'model:openai.responses#1:1:503',
      'model:anthropic.messages#1:1:503',
    ]);
  });

  it('an agent loop on the real OpenAI SDK finishes its task while both the model and the tool fail, and the history keeps the two apart (R3)', async () => {
    const { clock, history, world, faults } = trial([
      { match: { tool: CHAT, call: 1, attempt: 1 }, fault: { kind: 'rate_limit', retryAfter: 1 } },
      { match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'network' } },
    ]);
    const run = await runWithMsw(faults, clock, async () => {
      const client = new OpenAI({ apiKey: 'sk-test' });
      const messages: OpenAI.ChatCompletionMessageParam[] = [
        { role: 'user', content: 'Order one book, reference ref-1' },
      ];
      const tools: OpenAI.ChatCompletionTool[] = [
        {
          type: 'function',
          function: { name: 'create_order', description: 'Create an order', parameters: { type: 'object' } },
        },
      ];
      for (let turn = 0; turn < 4; turn++) {
        const answer = (await client.chat.completions.create({ model: 'gpt-4o', messages, tools })).choices[0]!.message;
        messages.push(answer);
        if (!answer.tool_calls?.length) return finalFromText(answer.content ?? '');
        for (const call of answer.tool_calls) {
          if (call.type !== 'function') continue;
          // The tool: POST with one key for the whole operation, resent once on a network error.
          const send = () =>
            fetch(`${SHOP}/orders`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'idempotency-key': `op-${call.id}` },
              body: call.function.arguments,
            });
          const res = await send().catch(() => send());
          messages.push({ role: 'tool', tool_call_id: call.id, content: await res.text() });
        }
      }
      return null;
    });
    expect(run.kind === 'settled' && run.value).toEqual({
      kind: 'final',
      outcome: 'completed',
      message: 'Order placed.',
      claims: [{ subject: 'orders:ref-1', status: 'succeeded' }],
    });
    expect(Object.keys(world.snapshot().services['orders'] as object)).toEqual(['ord-1']);
    expect(errorsOf(history.events)).toEqual([{ call: `${CHAT}#1`, attempt: 1, kind: 'rate_limit', status: 429 }]);
    const toolFailures = history.events.flatMap((e) =>
      e.type === 'response' && e.tool === 'create_order' ? [`${e.attempt}:${e.result}`] : [],
    );
    expect(toolFailures).toEqual(['1:error', '2:ok']);
    expect(modelCallLoads(history.events).map((l) => l.requests)).toEqual([2, 1]);
  });
});
