import type { IdSource } from '../../core/index.js';
import type { ModelAction } from '../model.js';
import { actionText, contractOf, ConversationBuilder, isObj, str, textOf } from './conversation.js';
import type { ModelDialect, ModelRequestView } from './ModelResponder.js';
import { deltas, sseFrame } from '../../faults/http/sse.js';
import type { ToolResultReader } from './readToolResult.js';
import { estimateTokens } from './usage.js';
import type { Mistaken, Said } from './mistakes/said.js';

export const ANTHROPIC_MESSAGES = 'model:anthropic.messages';

function read(body: unknown, reader?: ToolResultReader): ModelRequestView {
  const b = isObj(body) ? body : {};
  const conversation = new ConversationBuilder(reader);
  for (const m of Array.isArray(b['messages']) ? b['messages'].filter(isObj) : []) {
    const content = m['content'];
    const blocks = Array.isArray(content) ? content.filter(isObj) : [];
    if (str(m['role']) === 'assistant') {
      const uses = blocks.filter((x) => x['type'] === 'tool_use');
      if (uses.length > 0)
        conversation.assistantCalls(
          uses.map((u) => ({ id: str(u['id']), tool: str(u['name']), input: u['input'] ?? {} })),
        );
      else conversation.assistantText(textOf(content));
      continue;
    }
    const results = blocks.filter((x) => x['type'] === 'tool_result');
    for (const r of results)
      conversation.toolResult(str(r['tool_use_id']), textOf(r['content']), r['is_error'] === true);
    const text = typeof content === 'string' ? content : textOf(blocks.filter((x) => x['type'] === 'text'));
    if (results.length === 0 || text !== '') conversation.user(text);
  }
  const tools = (Array.isArray(b['tools']) ? b['tools'] : [])
    .filter(isObj)
    .map((t) => contractOf(str(t['name']), str(t['description'])));
  return { task: conversation.task, tools, messages: conversation.messages };
}

function write(action: ModelAction, body: unknown, ids: IdSource): unknown {
  const content =
    action.kind === 'tool_calls'
      ? action.calls.map((c) => ({
          type: 'tool_use',
          id: c.id ?? ids.next('toolu'),
          name: c.tool,
          input: c.input ?? {},
        }))
      : [{ type: 'text', text: actionText(action) }];
  return {
    id: ids.next('msg'),
    type: 'message',
    role: 'assistant',
    model: isObj(body) ? str(body['model']) : '',
    content,
    stop_reason: action.kind === 'tool_calls' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    // Estimated, as a scripted answer has no tokenizer behind it (`estimateTokens`).
    usage: {
      input_tokens: estimateTokens(isObj(body) ? [body['system'], body['messages']] : undefined),
      output_tokens: estimateTokens(content),
    },
  };
}

type Obj = Record<string, unknown>;

/**
 * The answer as Messages streams it: `message_start` (the message with no content, its input
 * tokens), a `ping`, per content block `content_block_start`, its `text_delta`s or
 * `input_json_delta`s, `content_block_stop`; then `message_delta` with the `stop_reason` and
 * the output tokens, and `message_stop`. Each event names itself on an `event:` line.
 */
function stream(whole: unknown): string[] {
  const w = isObj(whole) ? whole : {};
  const usage: Obj = isObj(w['usage']) ? w['usage'] : {};
  const frames: string[] = [];
  const emit = (type: string, fields: Obj = {}): void => {
    frames.push(sseFrame({ type, ...fields }, type));
  };
  emit('message_start', {
    message: {
      ...w,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage['input_tokens'] ?? 0, output_tokens: 1 },
    },
  });
  emit('ping');
  const blocks = Array.isArray(w['content']) ? w['content'].filter(isObj) : [];
  blocks.forEach((block, index) => {
    if (block['type'] === 'tool_use') {
      emit('content_block_start', { index, content_block: { ...block, input: {} } });
      // Input a mistake left as text (arguments that are not JSON) streams as it is.
      const input = typeof block['input'] === 'string' ? block['input'] : JSON.stringify(block['input'] ?? {});
      for (const piece of deltas(input))
        emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
    } else {
      emit('content_block_start', { index, content_block: { ...block, text: '' } });
      for (const piece of deltas(str(block['text'])))
        emit('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    }
    emit('content_block_stop', { index });
  });
  emit('message_delta', {
    delta: { stop_reason: w['stop_reason'], stop_sequence: null },
    usage: { output_tokens: usage['output_tokens'] ?? 0 },
  });
  emit('message_stop');
  return frames;
}

function said(whole: unknown): Said {
  const w = isObj(whole) ? whole : {};
  const blocks = Array.isArray(w['content']) ? w['content'].filter(isObj) : [];
  return {
    text: blocks
      .filter((b) => b['type'] === 'text')
      .map((b) => str(b['text']))
      .join(''),
    calls: blocks
      .filter((b) => b['type'] === 'tool_use')
      .map((b) => ({ id: str(b['id']), name: str(b['name']), arguments: JSON.stringify(b['input'] ?? {}) })),
  };
}

// Messages has no content filter of its own: a filtered answer ends as a refusal does.
const STOP: Readonly<Record<Mistaken['stop'], string | undefined>> = {
  done: undefined,
  length: 'max_tokens',
  refusal: 'refusal',
  content_filter: 'refusal',
};

/** A tool call's input: the arguments parsed when they are a JSON object, else the text as it came. */
function inputOf(args: string): unknown {
  try {
    const value = JSON.parse(args) as unknown;
    return isObj(value) ? value : args;
  } catch {
    return args;
  }
}

function mistaken(whole: unknown, m: Mistaken): unknown {
  const w = isObj(whole) ? whole : {};
  const text = m.refusal ?? m.text;
  const content: Obj[] = [
    ...(text !== '' || m.calls.length === 0 ? [{ type: 'text', text }] : []),
    ...m.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: inputOf(c.arguments) })),
  ];
  return { ...w, content, stop_reason: STOP[m.stop] ?? (m.calls.length > 0 ? 'tool_use' : 'end_turn') };
}

/** Anthropic's 400 for a prompt past the context window, as the API words it. */
function contextLength(body: unknown): { status: number; body: unknown } {
  const tokens = 200_000 + estimateTokens(isObj(body) ? [body['system'], body['messages']] : undefined);
  return {
    status: 400,
    body: {
      type: 'error',
      error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > 200000 maximum` },
    },
  };
}

/** Anthropic Messages (`POST /v1/messages`), whole or streamed. */
export const anthropicMessages: ModelDialect = {
  operation: ANTHROPIC_MESSAGES,
  method: 'POST',
  path: '/v1/messages',
  read,
  write,
  stream,
  said,
  mistaken,
  contextLength,
};
