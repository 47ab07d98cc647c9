import type { IdSource } from '../../core/index.js';
import type { ModelAction } from '../model.js';
import { actionText, argumentsOf, contractOf, ConversationBuilder, isObj, str, textOf } from './conversation.js';
import type { ModelDialect, ModelRequestView } from './ModelResponder.js';
import { deltas, sseFrame } from '../../faults/http/sse.js';
import type { ToolResultReader } from './readToolResult.js';
import { estimateTokens } from './usage.js';
import type { Mistaken, Said } from './mistakes/said.js';

export const OPENAI_RESPONSES = 'model:openai.responses';

function read(body: unknown, reader?: ToolResultReader): ModelRequestView {
  const b = isObj(body) ? body : {};
  const conversation = new ConversationBuilder(reader);
  const input = b['input'];
  if (typeof input === 'string') conversation.user(input);
  // Consecutive function_call items are one assistant turn.
  let pending: { id: string; tool: string; input: unknown }[] = [];
  const flush = (): void => {
    if (pending.length > 0) conversation.assistantCalls(pending);
    pending = [];
  };
  for (const item of Array.isArray(input) ? input.filter(isObj) : []) {
    const type = str(item['type']);
    if (type === 'function_call') {
      pending.push({ id: str(item['call_id']), tool: str(item['name']), input: argumentsOf(item['arguments']) });
      continue;
    }
    flush();
    if (type === 'function_call_output') conversation.toolResult(str(item['call_id']), textOf(item['output']));
    else if (str(item['role']) === 'user') conversation.user(textOf(item['content']));
    else if (str(item['role']) === 'assistant') conversation.assistantText(textOf(item['content']));
  }
  flush();
  const tools = (Array.isArray(b['tools']) ? b['tools'] : [])
    .filter(isObj)
    .map((t) => contractOf(str(t['name']), str(t['description'])));
  return { task: conversation.task, tools, messages: conversation.messages };
}

function write(action: ModelAction, body: unknown, ids: IdSource, nowMs: number): unknown {
  const output =
    action.kind === 'tool_calls'
      ? action.calls.map((c) => ({
          type: 'function_call',
          id: ids.next('fc'),
          call_id: c.id ?? ids.next('call'),
          name: c.tool,
          arguments: JSON.stringify(c.input ?? {}),
          status: 'completed',
        }))
      : [
          {
            type: 'message',
            id: ids.next('msg'),
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: actionText(action), annotations: [] }],
          },
        ];
  return {
    id: ids.next('resp'),
    object: 'response',
    created_at: Math.floor(nowMs / 1000),
    status: 'completed',
    model: isObj(body) ? str(body['model']) : '',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: responsesUsage(isObj(body) ? [body['instructions'], body['input']] : undefined, output),
  };
}

/** Estimated, as a scripted answer has no tokenizer behind it (`estimateTokens`). */
function responsesUsage(
  input: unknown,
  output: unknown,
): { input_tokens: number; output_tokens: number; total_tokens: number } {
  const i = estimateTokens(input);
  const o = estimateTokens(output);
  return { input_tokens: i, output_tokens: o, total_tokens: i + o };
}

type Obj = Record<string, unknown>;

/**
 * The answer as the Responses API streams it: `response.created` and `response.in_progress`
 * (the response with no output yet), then per output item `response.output_item.added`, its
 * text (`response.content_part.added`, `response.output_text.delta`…, `.done`,
 * `response.content_part.done`) or its arguments (`response.function_call_arguments.delta`…,
 * `.done`), and `response.output_item.done`; last `response.completed` with the whole response.
 * Every event names itself on an `event:` line and carries its `sequence_number`.
 */
function stream(whole: unknown): string[] {
  const w = isObj(whole) ? whole : {};
  const frames: string[] = [];
  let sequence = 0;
  const emit = (type: string, fields: Obj): void => {
    frames.push(sseFrame({ type, sequence_number: sequence++, ...fields }, type));
  };
  const started = { ...w, status: 'in_progress', output: [], usage: null };
  emit('response.created', { response: started });
  emit('response.in_progress', { response: started });
  const output = Array.isArray(w['output']) ? w['output'].filter(isObj) : [];
  output.forEach((item, index) => {
    const id = str(item['id']);
    if (item['type'] === 'function_call') {
      emit('response.output_item.added', {
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      for (const piece of deltas(str(item['arguments'])))
        emit('response.function_call_arguments.delta', { item_id: id, output_index: index, delta: piece });
      emit('response.function_call_arguments.done', {
        item_id: id,
        output_index: index,
        name: item['name'],
        arguments: item['arguments'],
      });
    } else {
      const parts = Array.isArray(item['content']) ? item['content'].filter(isObj) : [];
      emit('response.output_item.added', {
        output_index: index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      parts.forEach((part, content) => {
        const where = { item_id: id, output_index: index, content_index: content };
        if (part['type'] === 'refusal') {
          const refusal = str(part['refusal']);
          emit('response.content_part.added', { ...where, part: { ...part, refusal: '' } });
          for (const piece of deltas(refusal)) emit('response.refusal.delta', { ...where, delta: piece });
          emit('response.refusal.done', { ...where, refusal });
          emit('response.content_part.done', { ...where, part });
          return;
        }
        const text = str(part['text']);
        emit('response.content_part.added', { ...where, part: { ...part, text: '' } });
        for (const piece of deltas(text)) emit('response.output_text.delta', { ...where, delta: piece, logprobs: [] });
        emit('response.output_text.done', { ...where, text, logprobs: [] });
        emit('response.content_part.done', { ...where, part });
      });
    }
    emit('response.output_item.done', { output_index: index, item });
  });
  // An answer cut short or filtered ends `response.incomplete`, as the API ends it.
  emit(w['status'] === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: w });
  return frames;
}

function said(whole: unknown): Said {
  const w = isObj(whole) ? whole : {};
  const output = Array.isArray(w['output']) ? w['output'].filter(isObj) : [];
  const calls = output
    .filter((i) => i['type'] === 'function_call')
    .map((i) => ({ id: str(i['call_id']), name: str(i['name']), arguments: str(i['arguments']) }));
  const text = output
    .filter((i) => i['type'] === 'message')
    .flatMap((i) => (Array.isArray(i['content']) ? i['content'].filter(isObj) : []))
    .map((p) => str(p['text']))
    .join('');
  return { text, calls };
}

const INCOMPLETE: Readonly<Record<Mistaken['stop'], string | undefined>> = {
  done: undefined,
  refusal: undefined,
  length: 'max_output_tokens',
  content_filter: 'content_filter',
};

function mistaken(whole: unknown, m: Mistaken): unknown {
  const w = isObj(whole) ? whole : {};
  const output = Array.isArray(w['output']) ? w['output'].filter(isObj) : [];
  const message = output.find((i) => i['type'] === 'message');
  const reason = INCOMPLETE[m.stop];
  const items: Obj[] = [];
  const content =
    m.refusal !== undefined
      ? [{ type: 'refusal', refusal: m.refusal }]
      : m.text !== '' || m.calls.length === 0
        ? [{ type: 'output_text', text: m.text, annotations: [] }]
        : [];
  if (content.length > 0)
    items.push({
      type: 'message',
      id: str(message?.['id']) || `msg_${str(w['id'])}`,
      role: 'assistant',
      status: reason ? 'incomplete' : 'completed',
      content,
    });
  m.calls.forEach((c, i) => {
    const was = output.find((o) => o['type'] === 'function_call' && o['call_id'] === c.id);
    items.push({
      type: 'function_call',
      id: str(was?.['id']) || `fc_${c.id}_${i}`,
      call_id: c.id,
      name: c.name,
      arguments: c.arguments,
      status: reason && i === m.calls.length - 1 ? 'incomplete' : 'completed',
    });
  });
  return {
    ...w,
    status: reason ? 'incomplete' : 'completed',
    ...(reason && { incomplete_details: { reason } }),
    output: items,
  };
}

/** The Responses API's 400 for an input past the context window, as the API words it. */
function contextLength(): { status: number; body: unknown } {
  return {
    status: 400,
    body: {
      error: {
        message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        param: 'input',
        code: 'context_length_exceeded',
      },
    },
  };
}

/** OpenAI Responses (`POST /v1/responses`), whole or streamed. */
export const openaiResponses: ModelDialect = {
  operation: OPENAI_RESPONSES,
  method: 'POST',
  path: '/v1/responses',
  read,
  write,
  stream,
  said,
  mistaken,
  contextLength,
};
