import type { IdSource } from '../../core/index.js';
import type { ModelAction } from '../model.js';
import { actionText, argumentsOf, contractOf, ConversationBuilder, isObj, str, textOf } from './conversation.js';
import type { ModelDialect, ModelRequestView } from './ModelResponder.js';
import { deltas, sseFrame } from '../../faults/http/sse.js';
import type { ToolResultReader } from './readToolResult.js';
import { estimateTokens } from './usage.js';
import type { Mistaken, Said } from './mistakes/said.js';

export const OPENAI_CHAT = 'model:openai.chat.completions';

function read(body: unknown, reader?: ToolResultReader): ModelRequestView {
  const b = isObj(body) ? body : {};
  const conversation = new ConversationBuilder(reader);
  for (const m of Array.isArray(b['messages']) ? b['messages'] : []) {
    if (!isObj(m)) continue;
    const role = str(m['role']);
    if (role === 'user') conversation.user(textOf(m['content']));
    else if (role === 'tool') conversation.toolResult(str(m['tool_call_id']), textOf(m['content']));
    else if (role === 'assistant') {
      const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].filter(isObj) : [];
      if (calls.length > 0) {
        conversation.assistantCalls(
          calls.map((c) => {
            const fn = isObj(c['function']) ? c['function'] : {};
            return { id: str(c['id']), tool: str(fn['name']), input: argumentsOf(fn['arguments']) };
          }),
        );
      } else conversation.assistantText(textOf(m['content']));
    }
  }
  const tools = (Array.isArray(b['tools']) ? b['tools'] : []).filter(isObj).map((t) => {
    const fn = isObj(t['function']) ? t['function'] : {};
    return contractOf(str(fn['name']), str(fn['description']));
  });
  return { task: conversation.task, tools, messages: conversation.messages };
}

function write(action: ModelAction, body: unknown, ids: IdSource, nowMs: number): unknown {
  const message =
    action.kind === 'tool_calls'
      ? {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: action.calls.map((c) => ({
            id: c.id ?? ids.next('call'),
            type: 'function',
            function: { name: c.tool, arguments: JSON.stringify(c.input ?? {}) },
          })),
        }
      : { role: 'assistant', content: actionText(action), refusal: null };
  return {
    id: ids.next('chatcmpl'),
    object: 'chat.completion',
    created: Math.floor(nowMs / 1000),
    model: isObj(body) ? str(body['model']) : '',
    choices: [
      { index: 0, message, logprobs: null, finish_reason: action.kind === 'tool_calls' ? 'tool_calls' : 'stop' },
    ],
    usage: chatUsage(isObj(body) ? body['messages'] : undefined, message),
  };
}

/** Estimated, as a scripted answer has no tokenizer behind it (`estimateTokens`). */
function chatUsage(
  messages: unknown,
  message: unknown,
): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const prompt = estimateTokens(messages);
  const completion = estimateTokens(message);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

type Obj = Record<string, unknown>;

/**
 * The answer as Chat Completions streams it: `chat.completion.chunk`s whose deltas carry the
 * role, then the text or each tool call (its `index`, `id`, name, then its arguments in
 * pieces), a last chunk with the `finish_reason`, with `stream_options.include_usage` one
 * more with empty `choices` and the `usage` (every other chunk then has `usage: null`), and
 * `data: [DONE]`.
 */
function stream(whole: unknown, body: unknown): string[] {
  const w = isObj(whole) ? whole : {};
  const choice: Obj = Array.isArray(w['choices']) && isObj(w['choices'][0]) ? w['choices'][0] : {};
  const message: Obj = isObj(choice['message']) ? choice['message'] : {};
  const options = isObj(body) && isObj(body['stream_options']) ? body['stream_options'] : {};
  const withUsage = options['include_usage'] === true;
  // Every chunk opens with the same fields, in this order (the frames are compared byte for byte).
  const head = { id: w['id'], object: 'chat.completion.chunk', created: w['created'], model: w['model'] };
  const chunk = (delta: Obj, finish: string | null = null): string =>
    sseFrame({
      ...head,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(withUsage ? { usage: null } : {}),
    });
  const frames: string[] = [];
  const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'].filter(isObj) : [];
  if (calls.length > 0) {
    calls.forEach((call, index) => {
      const fn = isObj(call['function']) ? call['function'] : {};
      const head = { index, id: call['id'], type: 'function', function: { name: fn['name'], arguments: '' } };
      frames.push(
        chunk(
          index === 0
            ? { role: 'assistant', content: null, tool_calls: [head], refusal: null }
            : { tool_calls: [head] },
        ),
      );
      for (const piece of deltas(str(fn['arguments'])))
        frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
  } else if (typeof message['refusal'] === 'string') {
    // A refusal streams in `delta.refusal`, the content staying null.
    frames.push(chunk({ role: 'assistant', content: null, refusal: '' }));
    for (const piece of deltas(message['refusal'])) frames.push(chunk({ refusal: piece }));
  } else {
    frames.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const piece of deltas(str(message['content']))) frames.push(chunk({ content: piece }));
  }
  frames.push(chunk({}, str(choice['finish_reason']) || 'stop'));
  if (withUsage) frames.push(sseFrame({ ...head, system_fingerprint: null, choices: [], usage: w['usage'] }));
  frames.push(sseFrame('[DONE]'));
  return frames;
}

function said(whole: unknown): Said {
  const w = isObj(whole) ? whole : {};
  const choice: Obj = Array.isArray(w['choices']) && isObj(w['choices'][0]) ? w['choices'][0] : {};
  const message: Obj = isObj(choice['message']) ? choice['message'] : {};
  const calls = (Array.isArray(message['tool_calls']) ? message['tool_calls'] : []).filter(isObj).map((c) => {
    const fn = isObj(c['function']) ? c['function'] : {};
    return { id: str(c['id']), name: str(fn['name']), arguments: str(fn['arguments']) };
  });
  return { text: str(message['content']), calls };
}

const FINISH: Readonly<Record<Mistaken['stop'], string | undefined>> = {
  done: undefined,
  length: 'length',
  refusal: 'stop',
  content_filter: 'content_filter',
};

function mistaken(whole: unknown, m: Mistaken): unknown {
  const w = isObj(whole) ? whole : {};
  const choice: Obj = Array.isArray(w['choices']) && isObj(w['choices'][0]) ? w['choices'][0] : {};
  const message =
    m.refusal !== undefined
      ? { role: 'assistant', content: null, refusal: m.refusal }
      : m.calls.length > 0
        ? {
            role: 'assistant',
            content: m.text === '' ? null : m.text,
            refusal: null,
            tool_calls: m.calls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : { role: 'assistant', content: m.text, refusal: null };
  const finish = FINISH[m.stop] ?? (m.calls.length > 0 ? 'tool_calls' : 'stop');
  return { ...w, choices: [{ ...choice, message, finish_reason: finish }] };
}

/** OpenAI's 400 for a conversation past the context window, as the API words it. */
function contextLength(body: unknown): { status: number; body: unknown } {
  const tokens = 128_000 + estimateTokens(isObj(body) ? body['messages'] : undefined);
  return {
    status: 400,
    body: {
      error: {
        message:
          `This model's maximum context length is 128000 tokens. However, your messages resulted in ${tokens} tokens. ` +
          'Please reduce the length of the messages.',
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  };
}

/** OpenAI Chat Completions (`POST /v1/chat/completions`), whole or streamed. */
export const openaiChat: ModelDialect = {
  operation: OPENAI_CHAT,
  method: 'POST',
  path: '/v1/chat/completions',
  read,
  write,
  stream,
  said,
  mistaken,
  contextLength,
};
