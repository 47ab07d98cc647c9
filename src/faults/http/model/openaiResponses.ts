import type { IdSource } from '../../../core/index.js';
import type { ModelAction } from '../../../agent/model.js';
import { actionText, argumentsOf, contractOf, ConversationBuilder, isObj, str, textOf } from './conversation.js';
import type { ModelDialect, ModelRequestView } from './ModelResponder.js';
import type { ToolResultReader } from './readToolResult.js';
import { estimateTokens } from './usage.js';

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
  const tools = (Array.isArray(b['tools']) ? b['tools'] : []).filter(isObj).map((t) => contractOf(str(t['name']), str(t['description'])));
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
function responsesUsage(input: unknown, output: unknown): { input_tokens: number; output_tokens: number; total_tokens: number } {
  const i = estimateTokens(input);
  const o = estimateTokens(output);
  return { input_tokens: i, output_tokens: o, total_tokens: i + o };
}

/** OpenAI Responses (`POST /v1/responses`), non-streaming. */
export const openaiResponses: ModelDialect = { operation: OPENAI_RESPONSES, method: 'POST', path: '/v1/responses', read, write };
