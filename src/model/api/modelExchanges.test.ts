import { describe, expect, it } from 'vitest';
import type { CassetteEntry } from './Cassette.js';
import { EXCHANGE_TEXT_MAX, modelExchanges } from './modelExchanges.js';

const entry = (
  body: unknown,
  answer: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): CassetteEntry => ({
  request: { method: 'POST', path: '/v1/x', body },
  response: { status: 200, headers, body: answer },
});
const sse = (events: unknown[]): string => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

describe('modelExchanges', () => {
  it('reads Chat Completions: the messages since the model last spoke, its text and tool calls', () => {
    const first = entry(
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Open a ticket.' }] },
        ],
      },
      {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'open_ticket', arguments: '{"a":1}' } }],
            },
          },
        ],
      },
    );
    const second = entry(
      {
        messages: [
          { role: 'user', content: 'Open a ticket.' },
          { role: 'assistant', content: null },
          { role: 'tool', tool_call_id: 'c1', content: '{"ok":true}' },
        ],
      },
      { choices: [{ message: { role: 'assistant', content: 'Done.' } }] },
    );
    expect(modelExchanges([first, second])).toEqual([
      {
        sent: [
          { role: 'system', text: 'Be brief.' },
          { role: 'user', text: 'Open a ticket.' },
        ],
        status: 200,
        answer: '',
        toolCalls: [{ name: 'open_ticket', arguments: '{"a":1}' }],
      },
      { sent: [{ role: 'tool', text: '[result of c1] {"ok":true}' }], status: 200, answer: 'Done.', toolCalls: [] },
    ]);
  });

  it('reads Anthropic Messages and the Responses API, whole and streamed', () => {
    const anthropic = entry(
      {
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'fine' }] },
        ],
      },
      {
        content: [
          { type: 'text', text: 'All set.' },
          { type: 'tool_use', name: 'close_ticket', input: { id: 2 } },
        ],
      },
    );
    const responses = entry(
      { instructions: 'Be brief.', input: 'Hi' },
      {
        output: [
          { type: 'function_call', name: 'open_ticket', arguments: '{}' },
          { type: 'message', content: [{ type: 'output_text', text: 'Ok.' }] },
        ],
      },
    );
    const chatStream = entry(
      { messages: [{ role: 'user', content: 'Hi' }], stream: true },
      `${sse([
        { choices: [{ delta: { content: 'He' } }] },
        { choices: [{ delta: { content: 'llo' } }] },
        { choices: [{ delta: { tool_calls: [{ index: 0, function: { name: 'open', arguments: '{"a"' } }] } }] },
        { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] } }] },
      ])}data: [DONE]\n\n`,
      { 'content-type': 'text/event-stream' },
    );
    const anthropicStream = entry(
      { messages: [{ role: 'user', content: 'Hi' }], stream: true },
      sse([
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Sure.' } },
        { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', name: 'open_ticket', input: {} } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"id":' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '3}' } },
      ]),
      { 'content-type': 'text/event-stream' },
    );
    const [a, r, c, s] = modelExchanges([anthropic, responses, chatStream, anthropicStream]);
    expect(a).toEqual({
      sent: [{ role: 'user', text: '[result of t1] fine' }],
      status: 200,
      answer: 'All set.',
      toolCalls: [{ name: 'close_ticket', arguments: '{"id":2}' }],
    });
    expect(r).toEqual({
      sent: [
        { role: 'system', text: 'Be brief.' },
        { role: 'user', text: 'Hi' },
      ],
      status: 200,
      answer: 'Ok.',
      toolCalls: [{ name: 'open_ticket', arguments: '{}' }],
    });
    expect(c).toMatchObject({ answer: 'Hello', toolCalls: [{ name: 'open', arguments: '{"a":1}' }] });
    expect(s).toMatchObject({ answer: 'Sure.', toolCalls: [{ name: 'open_ticket', arguments: '{"id":3}' }] });
  });

  it('shows an error answer by its message, and cuts long texts', () => {
    const [e] = modelExchanges([
      {
        request: {
          method: 'POST',
          path: '/v1/x',
          body: { messages: [{ role: 'user', content: 'x'.repeat(EXCHANGE_TEXT_MAX + 10) }] },
        },
        response: { status: 400, headers: {}, body: { error: { message: 'bad request' } } },
      },
    ]);
    expect(e!.answer).toBe('error: bad request');
    expect(e!.status).toBe(400);
    expect(e!.sent[0]!.text).toBe(`${'x'.repeat(EXCHANGE_TEXT_MAX)}… (10 more characters)`);
  });
});
