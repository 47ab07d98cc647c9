import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/model/ScriptedModel.js';
import { modelCallLoads, modelRetries } from '../../src/checks/modelRetries.js';
import { eventsOf } from '../../src/core/index.js';
import { createHttpTrial } from '../../src/faults/http/createHttpTrial.js';
import { openaiService } from '../../src/model/api/modelServices.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { ORDER } from './support.js';
import { BUDGET, recordOf } from './wireTools.js';

const RESPONSES = 'model:openai.responses';

function trial(plan: FaultPlan) {
  const model = new ScriptedModel({
    steps: [{ tool: 'create_order', input: ORDER, subject: 'orders:ref-1' }],
    finalMessage: 'Order placed.',
  });
  return createHttpTrial({ plan, serviceNames: ['orders'], services: () => [openaiService(model)] });
}

// Built inside the trial, so it finds the fetch msw intercepts.
const ask = (maxRetries?: number) =>
  generateText({
    model: createOpenAI({ apiKey: 'sk-test' }).responses('gpt-4o'),
    prompt: 'Order one book',
    // Declared without `execute`: the model's tool call comes back to us unexecuted.
    tools: {
      create_order: tool({
        description: 'Create an order',
        inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
      }),
    },
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });

describe('the Vercel AI SDK under a quota 429: its retries carry no retry header, and are still one model call', () => {
  it('three tries of one request are one call with 3 attempts, and model-retries flags the resends (R5)', async () => {
    const t = trial([{ match: { tool: RESPONSES }, fault: { kind: 'quota_exceeded' } }]);
    const run = await runWithMsw(t.faults, t.clock, () =>
      ask().then(
        () => 'answered',
        (e: Error) => e.name,
      ),
    );
    expect(run.kind === 'settled' && run.value).toBe('AI_RetryError');
    const requests = eventsOf(t.history.events, 'http_request');
    expect(requests.map((r) => ({ call: r.call, attempt: r.attempt, by: r.groupedBy }))).toEqual([
      { call: `${RESPONSES}#1`, attempt: 1, by: 'new' },
      { call: `${RESPONSES}#1`, attempt: 2, by: 'repeat' },
      { call: `${RESPONSES}#1`, attempt: 3, by: 'repeat' },
    ]);
    // The SDK's own backoff (2 s, then 4 s), on the virtual clock.
    expect(requests.map((r) => r.t)).toEqual([0, 2000, 6000]);
    expect(modelCallLoads(t.history.events).map((l) => [l.call, l.requests])).toEqual([[`${RESPONSES}#1`, 3]]);
    expect(modelRetries.check(recordOf(t), { budget: BUDGET, secrets: [] })).toMatchObject({
      valid: false,
      message: `model call ${RESPONSES}#1 to ${RESPONSES} was resent 2 time(s) after its quota_exceeded answer to http-1 at t=0ms (${['http-2', 'http-3'].map((r) => `${r} by AI SDK's retry layer or the agent's own loop around it (its User-Agent names AI SDK; the same body again with no retry-count header: not the SDK's retry)`).join(', ')}): waiting does not help an exhausted quota; stop and hand over to a person (R5)`,
      evidence: [
        {
          rule: 'R5',
          call: `${RESPONSES}#1`,
          resent: ['http-2', 'http-3'],
          resentBy: [
            { request: 'http-2', layer: 'framework-or-agent', framework: 'AI SDK' },
            { request: 'http-3', layer: 'framework-or-agent', framework: 'AI SDK' },
          ],
        },
      ],
    });
  });

  it('with maxRetries: 0 the quota answer is final, and model-retries passes', async () => {
    const t = trial([{ match: { tool: RESPONSES }, fault: { kind: 'quota_exceeded' } }]);
    await runWithMsw(t.faults, t.clock, () => ask(0).catch(() => null));
    expect(eventsOf(t.history.events, 'http_request')).toHaveLength(1);
    expect(modelRetries.check(recordOf(t), { budget: BUDGET, secrets: [] })).toEqual({ valid: true });
  });

  it('a transient 503 on the first try only: the retry is attempt 2 of the same call, and it answers', async () => {
    const t = trial([{ match: { tool: RESPONSES, attempt: 1 }, fault: { kind: 'unavailable', status: 503 } }]);
    const run = await runWithMsw(t.faults, t.clock, async () =>
      (await ask()).toolCalls.map((c) => [c.toolName, c.input]),
    );
    expect(run.kind === 'settled' && run.value).toEqual([['create_order', ORDER]]);
    expect(eventsOf(t.history.events, 'fault')).toHaveLength(1);
    expect(eventsOf(t.history.events, 'http_request').map((r) => `${r.call}/${r.attempt}`)).toEqual([
      `${RESPONSES}#1/1`,
      `${RESPONSES}#1/2`,
    ]);
  });
});
