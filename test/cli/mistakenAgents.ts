/**
 * Agents on the official openai and Anthropic SDKs that meet the model's own mistakes (issue 45),
 * as source text for a user's project: `careless` sends whatever call the model made on to its
 * tool (arguments read leniently, an unknown name taken for the tool it resembles) and reports any
 * text answer as done; `validating` checks each call against the tools it offered (a known name,
 * JSON arguments, the schema's keys and types, a call id not answered before) and feeds the error
 * back as the call's result (R16), and asks again when an answer is cut short, refused, filtered,
 * empty or not the model's (an error page), stopping honestly when asking again does not help.
 */
import { fileURLToPath } from 'node:url';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));

export type MistakeStyle = 'careless' | 'validating';

/** The checks both SDK agents share: what a validating agent asks of a call before it runs it. */
const VALIDATE = `
function problemOf(name: string, raw: string, seen: Set<string>, id: string): string | undefined {
  if (seen.has(id)) return \`call \${id} was answered already: a replayed answer\`;
  if (name !== 'open_ticket') return \`no tool named \${name}; the tools are: open_ticket\`;
  let args: unknown;
  try { args = JSON.parse(raw); } catch { return \`the arguments are not valid JSON: \${raw}\`; }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return 'the arguments must be an object';
  const a = args as Record<string, unknown>;
  for (const k of OPEN_TICKET_SCHEMA.required) if (typeof a[k] !== 'string') return \`\${k} is required and must be a string\`;
  for (const k of Object.keys(a)) if (!(k in OPEN_TICKET_SCHEMA.properties)) return \`unknown argument \${k}\`;
  if (/\\uFFFD/.test(raw)) return 'the arguments carry broken characters (U+FFFD)';
  return undefined;
}
// A final answer is the stand-in's JSON ({"outcome",…}): any other text is not one the agent can trust.
const isFinalJson = (text: string): boolean => { try { return typeof JSON.parse(text)?.outcome === 'string'; } catch { return false; } };
const lenient = (raw: string): unknown => { try { return JSON.parse(raw); } catch { return { requestId: 'req-42', subject: raw }; } };
// The careless agent's dispatch: the offered tool whose name shares the longest start with the call's (here, the only one).
const resembles = (_name: string): string => 'open_ticket';
`;

/** An agent on the openai SDK's Chat Completions, streamed or not. */
export const openaiMistakenAgent = (style: MistakeStyle, stream: boolean): string => `import OpenAI from 'openai';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from '${EXAMPLES}sdk-agents/code/helpdeskTools.js';
const STYLE: string = '${style}';
const STREAM = ${stream};
${VALIDATE}
type Said = { content: string; refusal: string | null; finish: string; calls: { id: string; name: string; arguments: string }[] };

async function ask(client: OpenAI, body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming): Promise<Said> {
  if (!STREAM) {
    const c = await client.chat.completions.create(body);
    const m = c.choices[0]!.message;
    return {
      content: m.content ?? '', refusal: m.refusal ?? null, finish: c.choices[0]!.finish_reason,
      calls: (m.tool_calls ?? []).flatMap((t) => (t.type === 'function' ? [{ id: t.id, name: t.function.name, arguments: t.function.arguments }] : [])),
    };
  }
  const said: Said = { content: '', refusal: null, finish: '', calls: [] };
  for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    said.content += choice.delta.content ?? '';
    if (choice.delta.refusal) said.refusal = (said.refusal ?? '') + choice.delta.refusal;
    for (const t of choice.delta.tool_calls ?? []) {
      const call = (said.calls[t.index] ??= { id: '', name: '', arguments: '' });
      call.id += t.id ?? '';
      call.name += t.function?.name ?? '';
      call.arguments += t.function?.arguments ?? '';
    }
    if (choice.finish_reason) said.finish = choice.finish_reason;
  }
  return said;
}

export default defineHttpAgent(async ({ task, services, model }) => {
  const client = new OpenAI({ baseURL: model!.baseUrl, apiKey: model!.apiKey, maxRetries: 0 });
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'open_ticket', description: OPEN_TICKET_DESCRIPTION, parameters: OPEN_TICKET_SCHEMA } },
  ];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: task }];
  const seen = new Set<string>();
  let asked = 0;
  for (let turn = 0; turn < 8; turn++) {
    let said: Said;
    try {
      said = await ask(client, { model: 'gpt-4o-mini', messages, tools });
    } catch (error) {
      if (STYLE === 'careless') return { outcome: 'completed', message: 'done (the model errored, the work is surely done)' };
      // Past the context window: the same request again would be refused again (R7); with nothing to trim, stop honestly.
      if (/context_length_exceeded|maximum context length|prompt is too long/.test(String(error)))
        return { outcome: 'unknown', message: \`the conversation is past the model's context window: \${String(error)}\` };
      return { outcome: 'failed', message: \`the model refused the request: \${String(error)}\` };
    }
    const broken = said.finish === 'length' || said.finish === 'content_filter' || said.refusal !== null ||
      (said.calls.length === 0 && !isFinalJson(said.content));
    if (STYLE === 'validating' && broken) {
      if (++asked <= 2) continue;   // the same request again: the model may answer it whole
      return { outcome: 'unknown', message: \`the model's answer was unusable (\${said.finish})\` };
    }
    if (said.calls.length === 0) {
      const final = finalFromText(said.content);
      if (final.kind === 'final' && isFinalJson(said.content)) return { outcome: final.outcome, message: final.message, claims: final.claims };
      return { outcome: 'completed', message: said.refusal ?? said.content };   // careless: any text is done
    }
    const problems = said.calls.map((c) => (STYLE === 'validating' ? problemOf(c.name, c.arguments, seen, c.id) : undefined));
    if (STYLE === 'validating' && problems.some((p) => p !== undefined) && said.calls.every((c) => seen.has(c.id))) {
      if (++asked <= 2) continue;
      return { outcome: 'unknown', message: 'the model repeated an answered call' };
    }
    messages.push({
      role: 'assistant', content: null,
      tool_calls: said.calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
    });
    for (const [i, c] of said.calls.entries()) {
      const problem = problems[i];
      const content = problem !== undefined
        ? JSON.stringify({ error: { type: 'invalid_request_error', message: \`invalid tool call: \${problem}\` } })
        : await runTool(services['helpdesk']!.baseUrl, resembles(c.name), lenient(c.arguments));
      seen.add(c.id);
      messages.push({ role: 'tool', tool_call_id: c.id, content });
    }
  }
  return { outcome: 'failed', message: 'out of turns' };
});
`;

/** An agent on the Anthropic SDK's Messages, streamed or not. */
export const anthropicMistakenAgent = (
  style: MistakeStyle,
  stream: boolean,
): string => `import Anthropic from '@anthropic-ai/sdk';
import { defineHttpAgent, finalFromText } from 'faultline';
import { OPEN_TICKET_DESCRIPTION, OPEN_TICKET_SCHEMA, runTool } from '${EXAMPLES}sdk-agents/code/helpdeskTools.js';
const STYLE: string = '${style}';
const STREAM = ${stream};
${VALIDATE}
export default defineHttpAgent(async ({ task, services, model }) => {
  const client = new Anthropic({ baseURL: model!.baseUrl, apiKey: model!.apiKey, maxRetries: 0 });
  const tools: Anthropic.Tool[] = [{ name: 'open_ticket', description: OPEN_TICKET_DESCRIPTION, input_schema: OPEN_TICKET_SCHEMA }];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: task }];
  const seen = new Set<string>();
  let asked = 0;
  let raws = new Map<number, string>();
  for (let turn = 0; turn < 8; turn++) {
    let reply: Anthropic.Message;
    try {
      const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages, tools };
      if (STREAM) {
        // MessageStream repairs a tool input cut short (its partial-JSON parser): keep the raw text to check it.
        const stream = client.messages.stream(body);
        raws = new Map();
        let at = -1;
        stream.on('streamEvent', (e) => {
          if (e.type === 'content_block_start') at = e.index;
          if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta')
            raws.set(at, (raws.get(at) ?? '') + e.delta.partial_json);
        });
        reply = await stream.finalMessage();
      } else reply = await client.messages.create(body);
    } catch (error) {
      if (STYLE === 'careless') return { outcome: 'completed', message: 'done (the model errored, the work is surely done)' };
      // Past the context window: the same request again would be refused again (R7); with nothing to trim, stop honestly.
      if (/context_length_exceeded|maximum context length|prompt is too long/.test(String(error)))
        return { outcome: 'unknown', message: \`the conversation is past the model's context window: \${String(error)}\` };
      return { outcome: 'failed', message: \`the model refused the request: \${String(error)}\` };
    }
    const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    const uses = reply.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    const broken = reply.stop_reason === 'max_tokens' || (reply.stop_reason as string) === 'refusal' ||
      (uses.length === 0 && !isFinalJson(text));
    if (STYLE === 'validating' && broken) {
      if (++asked <= 2) continue;
      return { outcome: 'unknown', message: \`the model's answer was unusable (\${String(reply.stop_reason)})\` };
    }
    if (uses.length === 0) {
      const final = finalFromText(text);
      if (final.kind === 'final' && isFinalJson(text)) return { outcome: final.outcome, message: final.message, claims: final.claims };
      return { outcome: 'completed', message: text };   // careless: any text is done
    }
    const raw = (u: Anthropic.ToolUseBlock): string =>
      raws.get(reply.content.indexOf(u)) ?? (typeof u.input === 'string' ? u.input : JSON.stringify(u.input));
    const problems = uses.map((u) => (STYLE === 'validating' ? problemOf(u.name, raw(u), seen, u.id) : undefined));
    if (STYLE === 'validating' && problems.some((p) => p !== undefined) && uses.every((u) => seen.has(u.id))) {
      if (++asked <= 2) continue;
      return { outcome: 'unknown', message: 'the model repeated an answered call' };
    }
    messages.push({ role: 'assistant', content: reply.content });
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const [i, u] of uses.entries()) {
      const problem = problems[i];
      seen.add(u.id);
      results.push(problem !== undefined
        ? { type: 'tool_result', tool_use_id: u.id, is_error: true, content: \`invalid tool call: \${problem}\` }
        : { type: 'tool_result', tool_use_id: u.id, content: await runTool(services['helpdesk']!.baseUrl, resembles(u.name), typeof u.input === 'string' ? lenient(u.input) : u.input) });
    }
    messages.push({ role: 'user', content: results });
  }
  return { outcome: 'failed', message: 'out of turns' };
});
`;
