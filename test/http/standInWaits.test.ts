import { describe, expect, it } from 'vitest';
import { defineHttpAgent, defineScenario, finalFromText, rulebookDefault, runTrial } from '../../src/public/index.js';

/**
 * The stand-in model waits out a tool's Retry-After itself: an agent written like the docs'
 * examples (tool calls until a text answer, read with `finalFromText`) never meets a turn it
 * must understand, and completes after the resend.
 */

const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 };
type Msg = Record<string, unknown>;

const agent = (texts: string[]) =>
  defineHttpAgent(async ({ task, services, model }) => {
    const messages: Msg[] = [{ role: 'user', content: task }];
    const tools = [
      {
        type: 'function',
        function: { name: 'create_order', description: 'Create an order', parameters: { type: 'object' } },
      },
    ];
    for (let turn = 0; turn < 6; turn++) {
      const res = await fetch(`${model!.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${model!.apiKey}` },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages, tools }),
      });
      const message = (
        (await res.json()) as {
          choices: {
            message: Msg & { content: string | null; tool_calls?: { id: string; function: { arguments: string } }[] };
          }[];
        }
      ).choices[0]!.message;
      messages.push(message);
      if (!message.tool_calls?.length) {
        texts.push(message.content ?? '');
        const final = finalFromText(message.content ?? '');
        return final.kind === 'final' ? { outcome: final.outcome, claims: final.claims } : { outcome: 'unknown' };
      }
      for (const call of message.tool_calls) {
        const r = await fetch(`${services['orders']!.baseUrl}/tools/create_order`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': 'order-ref-1' },
          body: call.function.arguments,
        });
        const content = r.ok
          ? JSON.stringify(await r.json())
          : `error: HTTP ${r.status}, Retry-After: ${r.headers.get('retry-after') ?? ''}`;
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
    return { outcome: 'failed' };
  });

describe('a tool answers 429 with Retry-After to an agent on the stand-in model', () => {
  it('the stand-in waits it out and answers with its resend: the agent completes', async () => {
    const texts: string[] = [];
    const scenario = defineScenario({
      name: 'stand-in-waits',
      services: ['orders'],
      model: { api: 'openai', plan: { steps: [{ tool: 'create_order', input: ORDER, subject: 'orders:ref-1' }] } },
      faults: [{ match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'rate_limit', retryAfter: 2 } }],
      agent: { kind: 'http', task: 'Create order ref-1', run: agent(texts) },
      goal: { effects: { 'order.created': 1 }, outcome: ['completed'] },
    });
    const trial = await runTrial({ scenario, config: rulebookDefault, runSeed: 1, trialIndex: 0 });
    expect(texts.some((t) => t.includes('wait_ms'))).toBe(false);
    expect(trial.checks.filter((c) => c.verdict.valid !== true)).toEqual([]);
    expect(trial.status).toBe('passed');
    const calls = trial.history
      .filter((e) => e.type === 'http_request' && JSON.stringify(e).includes('create_order'))
      .map((e) => e.t);
    expect(calls.length).toBe(2);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(2_000);
  });
});
