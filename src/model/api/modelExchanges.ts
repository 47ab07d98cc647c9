import type { CassetteEntry } from './Cassette.js';
import { sseData, sseFrames } from '../../faults/http/sse.js';

/**
 * One model request and its answer as a person reads them: the messages the agent added since
 * the model last spoke (the task, tool results), and what the model said and which tools it
 * called. Read from any of the three dialects (Chat Completions, Responses, Anthropic Messages),
 * streamed or not.
 */
export interface ModelExchange {
  readonly sent: readonly { readonly role: string; readonly text: string }[];
  readonly status: number;
  readonly answer: string;
  readonly toolCalls: readonly { readonly name: string; readonly arguments: string }[];
}

/** The longest text kept per message or answer: a report shows why, not whole documents. */
export const EXCHANGE_TEXT_MAX = 4_000;

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
const cut = (text: string): string =>
  text.length <= EXCHANGE_TEXT_MAX
    ? text
    : `${text.slice(0, EXCHANGE_TEXT_MAX)}… (${text.length - EXCHANGE_TEXT_MAX} more characters)`;

/** The text of a message's content: a string, or the parts of it that are text (a tool result's content included). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return str(content);
  return content
    .map((part: unknown) => {
      if (!isObj(part)) return str(part);
      if (typeof part['text'] === 'string') return part['text'];
      if (part['type'] === 'tool_result')
        return `[result of ${str(part['tool_use_id'])}] ${contentText(part['content'])}`;
      if (part['type'] === 'tool_use') return `[calls ${str(part['name'])}] ${str(part['input'])}`;
      return `[${str(part['type'])}]`;
    })
    .join('\n');
}

/** The messages after the model's last turn (all of them on the first request). */
function sentMessages(body: unknown): { role: string; text: string }[] {
  if (!isObj(body)) return [];
  const out: { role: string; text: string }[] = [];
  // Chat Completions and Anthropic: `messages`; Responses: `input`, a string or items.
  const items: unknown[] = Array.isArray(body['messages'])
    ? body['messages']
    : typeof body['input'] === 'string'
      ? [{ role: 'user', content: body['input'] }]
      : Array.isArray(body['input'])
        ? body['input']
        : [];
  const modelSpoke = (m: unknown): boolean => isObj(m) && (m['role'] === 'assistant' || m['type'] === 'function_call');
  let from = 0;
  items.forEach((m, i) => {
    if (modelSpoke(m)) from = i + 1;
  });
  if (from === 0) {
    if (typeof body['system'] === 'string') out.push({ role: 'system', text: body['system'] });
    if (typeof body['instructions'] === 'string') out.push({ role: 'system', text: body['instructions'] });
  }
  for (const m of items.slice(from)) {
    if (!isObj(m)) continue;
    if (m['type'] === 'function_call_output')
      out.push({ role: 'tool', text: `[result of ${str(m['call_id'])}] ${str(m['output'])}` });
    else if (m['role'] === 'tool')
      out.push({ role: 'tool', text: `[result of ${str(m['tool_call_id'])}] ${contentText(m['content'])}` });
    else out.push({ role: str(m['role']) || 'user', text: contentText(m['content']) });
  }
  return out.map((m) => ({ role: m.role, text: cut(m.text) }));
}

interface Answer {
  text: string;
  toolCalls: { name: string; arguments: string }[];
}

/** A whole (not streamed) answer, in whichever dialect it came. */
function wholeAnswer(body: unknown): Answer {
  const answer: Answer = { text: '', toolCalls: [] };
  if (!isObj(body)) return { ...answer, text: str(body) };
  if (isObj(body['error'])) return { ...answer, text: `error: ${str(body['error']['message'] ?? body['error'])}` };
  const choice: unknown = Array.isArray(body['choices']) ? body['choices'][0] : undefined;
  if (isObj(choice) && isObj(choice['message'])) {
    const message = choice['message'];
    answer.text = contentText(message['content'] ?? '');
    if (Array.isArray(message['tool_calls']))
      for (const c of message['tool_calls'])
        if (isObj(c) && isObj(c['function']))
          answer.toolCalls.push({ name: str(c['function']['name']), arguments: str(c['function']['arguments']) });
    return answer;
  }
  const texts: string[] = [];
  const blocks: unknown[] = Array.isArray(body['output'])
    ? body['output']
    : Array.isArray(body['content'])
      ? body['content']
      : [];
  for (const b of blocks) {
    if (!isObj(b)) continue;
    if (b['type'] === 'function_call') answer.toolCalls.push({ name: str(b['name']), arguments: str(b['arguments']) });
    else if (b['type'] === 'tool_use') answer.toolCalls.push({ name: str(b['name']), arguments: str(b['input']) });
    else if (b['type'] === 'message') texts.push(contentText(b['content']));
    else if (typeof b['text'] === 'string') texts.push(b['text']);
  }
  return { ...answer, text: texts.join('\n') };
}

/** A streamed answer, its events put back together. */
function streamedAnswer(text: string): Answer {
  const answer: Answer = { text: '', toolCalls: [] };
  const calls = new Map<number, { name: string; arguments: string }>();
  for (const frame of sseFrames(text)) {
    let event: unknown;
    try {
      event = JSON.parse(sseData(frame)) as unknown;
    } catch {
      continue;
    }
    if (!isObj(event)) continue;
    // Responses: the last event carries the whole response.
    if (event['type'] === 'response.completed' && isObj(event['response'])) return wholeAnswer(event['response']);
    // Chat Completions chunks.
    const delta: unknown =
      Array.isArray(event['choices']) && isObj(event['choices'][0]) ? event['choices'][0]['delta'] : undefined;
    if (isObj(delta)) {
      if (typeof delta['content'] === 'string') answer.text += delta['content'];
      if (Array.isArray(delta['tool_calls'])) {
        for (const c of delta['tool_calls']) {
          if (!isObj(c)) continue;
          const at = typeof c['index'] === 'number' ? c['index'] : calls.size;
          const call = calls.get(at) ?? { name: '', arguments: '' };
          if (isObj(c['function'])) {
            call.name += str(c['function']['name']);
            call.arguments += str(c['function']['arguments']);
          }
          calls.set(at, call);
        }
      }
    }
    // Anthropic Messages events.
    const at = typeof event['index'] === 'number' ? event['index'] : 0;
    if (
      event['type'] === 'content_block_start' &&
      isObj(event['content_block']) &&
      event['content_block']['type'] === 'tool_use'
    )
      calls.set(at, { name: str(event['content_block']['name']), arguments: '' });
    if (event['type'] === 'content_block_delta' && isObj(event['delta'])) {
      if (typeof event['delta']['text'] === 'string') answer.text += event['delta']['text'];
      if (typeof event['delta']['partial_json'] === 'string') {
        const call = calls.get(at);
        if (call) call.arguments += event['delta']['partial_json'];
      }
    }
  }
  return { ...answer, toolCalls: [...calls.values()] };
}

/** Each exchange of a recording, in the order it happened, as a person reads it. */
export function modelExchanges(entries: readonly CassetteEntry[]): ModelExchange[] {
  return entries.map((e) => {
    const { body } = e.response;
    const answer = typeof body === 'string' && body.includes('data:') ? streamedAnswer(body) : wholeAnswer(body);
    return {
      sent: sentMessages(e.request.body),
      status: e.response.status,
      answer: cut(answer.text),
      toolCalls: answer.toolCalls.map((c) => ({ name: c.name, arguments: cut(c.arguments) })),
    };
  });
}
