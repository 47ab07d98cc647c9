/** The live tests' fake provider, checked with the official SDKs: what the live tests rely on holds. */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fakeModelServer.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the fake model server', () => {
  it('answers the openai SDK with a tool call, then a final answer, streamed or not, with usage', async () => {
    server = await startFakeModelServer({ usage: { input: 7, output: 3 } });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
    const first = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'go' }],
    });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      requestId: 'req-1',
      subject: 'Printer on fire',
    });
    expect(first.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'user', content: 'go' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: '{"ok":true}' },
      ],
    });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(JSON.parse(text)).toMatchObject({ outcome: 'completed' });
    expect(usage).toMatchObject({ prompt_tokens: 7 });
    expect(server.requests.map((r) => r.authorization)).toEqual(['Bearer sk-test', 'Bearer sk-test']);
  });

  it('answers the Anthropic SDK, streamed or not', async () => {
    server = await startFakeModelServer();
    const client = new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0 });
    const first = await client.messages.create({
      model: 'claude-sonnet-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(first.content[0]).toMatchObject({ type: 'tool_use', name: 'open_ticket' });
    const use = first.content[0] as Anthropic.ToolUseBlock;
    const final = await client.messages
      .stream({
        model: 'claude-sonnet-5',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'ok' }] },
        ],
      })
      .finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text' });
    expect(final.usage.output_tokens).toBe(20);
  });

  it('fails requests at its error rate, counts requests in flight, and draws its policy from its seed', async () => {
    // The latency keeps all three in flight at once on a loaded machine; errors go in turn by
    // arrival, which the client does not order, so the statuses are compared as a multiset.
    server = await startFakeModelServer({ errorRate: 1, errors: ['429', '503'], latencyMs: 250 });
    const post = () =>
      fetch(`${server!.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [] }),
      });
    const answers = await Promise.all([post(), post(), post()]);
    expect(answers.map((a) => a.status).sort()).toEqual([429, 429, 503]);
    for (const a of answers) expect(a.headers.get('retry-after-ms')).toBe(a.status === 429 ? '20' : null);
    expect(server.maxInFlight()).toBe(3);
    await server.close();

    const draws = async (seed: number): Promise<string[]> => {
      const s = await startFakeModelServer({ seed, callProbability: 0.5 });
      const out: string[] = [];
      for (let i = 0; i < 20; i++) {
        const r = (await (
          await fetch(`${s.url}/v1/chat/completions`, {
            method: 'POST',
            body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'go' }] }),
          })
        ).json()) as { choices: { finish_reason: string }[] };
        out.push(r.choices[0]!.finish_reason);
      }
      await s.close();
      return out;
    };
    const a = await draws(3);
    expect(await draws(3)).toEqual(a);
    expect(new Set(a)).toEqual(new Set(['tool_calls', 'stop']));
    server = undefined;
  });
});
