import { describe, expect, it } from 'vitest';
import { IdSource } from '../../core/index.js';
import { anthropicMessages } from '../../model/api/anthropicMessages.js';
import { openaiChat } from '../../model/api/openaiChat.js';
import { openaiResponses } from '../../model/api/openaiResponses.js';
import { deltas, malformedFrame, sseData, sseFrame, sseFrames } from './sse.js';
import { streamUsageOf } from '../../model/api/usage.js';

const CALL = {
  kind: 'tool_calls',
  calls: [{ id: 'call-1', tool: 'create_order', input: { clientReference: 'ref-1', item: 'a rather long item name' } }],
} as const;
const FINAL = { kind: 'final', outcome: 'completed', message: 'Done.', claims: [] } as const;
const dataOf = (frames: readonly string[]) =>
  frames.map((f) => sseData(f)).map((d) => (d === '[DONE]' ? d : (JSON.parse(d) as Record<string, unknown>)));

describe('server-sent event frames', () => {
  it('cut a recorded stream back into its events, whatever its line endings', () => {
    const frames = [sseFrame({ a: 1 }), sseFrame({ b: 2 }, 'named'), sseFrame('[DONE]')];
    expect(sseFrames(frames.join(''))).toEqual(frames);
    expect(sseFrames(frames.join('').replace(/\n/g, '\r\n'))).toEqual(frames);
    expect(sseFrames('data: {"tail":1}')).toEqual(['data: {"tail":1}\n\n']);
    expect(sseFrames('')).toEqual([]);
  });

  it('make a malformed event that keeps its name and cannot be parsed', () => {
    const bad = malformedFrame(sseFrame({ type: 'message_start', message: { id: 'm' } }, 'message_start'));
    expect(bad.startsWith('event: message_start\ndata: {')).toBe(true);
    expect(bad.endsWith('\n\n')).toBe(true);
    expect(() => JSON.parse(sseData(bad)) as unknown).toThrow(SyntaxError);
    expect(() => JSON.parse(sseData(malformedFrame('data: 1\n\n'))) as unknown).toThrow(SyntaxError);
  });

  it('split text by code point, never inside a surrogate pair', () => {
    expect(deltas('😀😀😀', 2)).toEqual(['😀😀', '😀']);
    expect(deltas('')).toEqual([]);
  });
});

describe('each API streams the same answer it sends whole', () => {
  it('Chat Completions: role, tool call head, argument pieces, finish_reason, usage when asked, [DONE]', () => {
    const body = {
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stream_options: { include_usage: true },
    };
    const whole = openaiChat.write(CALL, body, new IdSource(), 0) as {
      usage: unknown;
      choices: { message: { tool_calls: { function: { arguments: string } }[] } }[];
    };
    const events = dataOf(openaiChat.stream(whole, body));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1) as {
      choices: {
        delta: { tool_calls?: { index: number; id?: string; function: { arguments: string } }[] };
        finish_reason: string | null;
      }[];
      usage: unknown;
    }[];
    expect(chunks[0]!.choices[0]!.delta.tool_calls![0]).toMatchObject({
      index: 0,
      id: 'call-1',
      function: { name: 'create_order', arguments: '' },
    });
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .map((t) => t.function.arguments)
      .join('');
    expect(args).toBe(whole.choices[0]!.message.tool_calls[0]!.function.arguments);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: whole.usage });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    // Without include_usage: no usage chunk, no usage field.
    const plain = dataOf(openaiChat.stream(whole, { ...body, stream_options: undefined }));
    expect(plain.slice(0, -1).every((c) => typeof c === 'object' && !('usage' in c))).toBe(true);
  });

  it('Responses: created … completed, numbered, named, the text rebuilt from its deltas', () => {
    const whole = openaiResponses.write(FINAL, { model: 'm', input: 'x' }, new IdSource(), 0);
    const frames = openaiResponses.stream(whole, {});
    const events = dataOf(frames) as { type: string; sequence_number: number; delta?: string }[];
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...events.filter((e) => e.type === 'response.output_text.delta').map(() => 'response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    frames.forEach((f, i) => expect(f.startsWith(`event: ${events[i]!.type}\n`)).toBe(true));
    expect(
      events
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe(JSON.stringify({ outcome: 'completed', message: 'Done.', claims: [] }));
    expect(streamUsageOf(frames)).toEqual({
      input: expect.any(Number) as number,
      output: expect.any(Number) as number,
    });
  });

  it('Anthropic Messages: message_start … message_stop, the tool input rebuilt from its JSON pieces', () => {
    const whole = anthropicMessages.write(CALL, { model: 'm', messages: [] }, new IdSource(), 0) as {
      usage: { input_tokens: number; output_tokens: number };
    };
    const frames = anthropicMessages.stream(whole, {});
    const events = dataOf(frames) as {
      type: string;
      delta?: { type: string; partial_json?: string; stop_reason?: string };
    }[];
    expect(events[0]!.type).toBe('message_start');
    expect(events.at(-2)).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'tool_use' } });
    expect(events.at(-1)!.type).toBe('message_stop');
    const json = events.flatMap((e) => (e.delta?.type === 'input_json_delta' ? [e.delta.partial_json] : [])).join('');
    expect(JSON.parse(json)).toEqual(CALL.calls[0].input);
    expect(streamUsageOf(frames)).toEqual({ input: whole.usage.input_tokens, output: whole.usage.output_tokens });
  });
});
