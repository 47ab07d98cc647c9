import type { AttrValue, FlatSpan } from './otlpSpans.js';

/** What a span is to the importer, read from the GenAI conventions or the openai instrumentations' names. */
export type SpanRole = 'chat' | 'execute_tool' | 'other';

/** The attributes the importer reads: every other one is kept in the scenario as a comment. */
export const READ_ATTRIBUTES = new Set([
  'gen_ai.operation.name',
  'gen_ai.request.model',
  'gen_ai.tool.name',
  'gen_ai.tool.call.id',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'http.response.status_code',
  'http.request.method',
  'http.request.header.idempotency-key',
  'http.response.header.retry-after',
  'error.type',
  'openinference.span.kind',
  'llm.model_name',
  'llm.request.type',
  'tool.name',
  'tool.parameters',
  'input.value',
  'output.value',
  'faultline.risk',
  'faultline.retry_after_ms',
  'faultline.response',
  'faultline.attempt',
]);

/** Attribute families read by prefix: the messages the openai instrumentations flatten into attributes. */
export const READ_PREFIXES = ['llm.input_messages.', 'llm.output_messages.', 'gen_ai.prompt.', 'gen_ai.completion.'];

export const isRead = (key: string): boolean =>
  READ_ATTRIBUTES.has(key) || READ_PREFIXES.some((p) => key.startsWith(p));

/**
 * An attribute's value, or the first of a string array: the semantic conventions make the HTTP header
 * attributes (`http.response.header.retry-after`, `http.request.header.idempotency-key`) string arrays.
 */
const scalar = (span: FlatSpan, key: string): AttrValue | undefined => {
  const v = span.attributes[key];
  return Array.isArray(v) && typeof v[0] === 'string' ? v[0] : v;
};

export const str = (span: FlatSpan, key: string): string | undefined => {
  const v = scalar(span, key);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
};

export const num = (span: FlatSpan, key: string): number | undefined => {
  const v = scalar(span, key);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/**
 * The GenAI operation: `gen_ai.operation.name` (the semantic conventions, and
 * `@opentelemetry/instrumentation-openai`), OpenInference's `openinference.span.kind`, Traceloop's
 * `llm.request.type`, else the span's name as the conventions form it (`chat gpt-4o`, `execute_tool x`).
 */
export function roleOf(span: FlatSpan): SpanRole {
  const op = str(span, 'gen_ai.operation.name');
  if (op === 'chat' || op === 'text_completion' || op === 'generate_content') return 'chat';
  if (op === 'execute_tool') return 'execute_tool';
  const kind = str(span, 'openinference.span.kind')?.toUpperCase();
  if (kind === 'LLM') return 'chat';
  if (kind === 'TOOL') return 'execute_tool';
  if (str(span, 'llm.request.type') === 'chat') return 'chat';
  if (op === undefined && /^chat( |$)/.test(span.name)) return 'chat';
  if (op === undefined && /^execute_tool /.test(span.name)) return 'execute_tool';
  return 'other';
}

/** A tool call the model asked for, as a chat span lists it. */
export interface ProposedCall {
  readonly id: string | undefined;
  readonly tool: string;
  readonly arguments: string | undefined;
}

/**
 * The tool calls a chat span's answer holds: OpenInference's
 * `llm.output_messages.<i>.message.tool_calls.<j>.tool_call.function.{name,arguments}`, Traceloop's
 * `gen_ai.completion.<i>.tool_calls.<j>.{name,arguments}`, or the conventions' `gen_ai.output.messages`
 * (JSON: parts of type `tool_call`).
 */
export function proposedCalls(span: FlatSpan): ProposedCall[] {
  const out: ProposedCall[] = [];
  const families: [RegExp, string, string, string][] = [
    [
      /^llm\.output_messages\.(\d+)\.message\.tool_calls\.(\d+)\.tool_call\.function\.name$/,
      'llm.output_messages.$1.message.tool_calls.$2.tool_call.id',
      'llm.output_messages.$1.message.tool_calls.$2.tool_call.function.arguments',
      '',
    ],
    [
      /^gen_ai\.completion\.(\d+)\.tool_calls\.(\d+)\.name$/,
      'gen_ai.completion.$1.tool_calls.$2.id',
      'gen_ai.completion.$1.tool_calls.$2.arguments',
      '',
    ],
  ];
  const keys = Object.keys(span.attributes).sort(byIndices);
  for (const [pattern, idKey, argKey] of families)
    for (const key of keys) {
      const m = pattern.exec(key);
      const tool = m ? str(span, key) : undefined;
      if (!m || tool === undefined) continue;
      const at = (k: string): string => k.replace('$1', m[1]!).replace('$2', m[2]!);
      out.push({ id: str(span, at(idKey)), tool, arguments: str(span, at(argKey)) });
    }
  if (out.length > 0) return out;
  return outputMessageCalls(str(span, 'gen_ai.output.messages'));
}

function outputMessageCalls(json: string | undefined): ProposedCall[] {
  const messages = parseJson(json);
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((m: unknown) => {
    const parts = isObject(m) && Array.isArray(m['parts']) ? (m['parts'] as unknown[]) : [];
    return parts.flatMap((p) =>
      isObject(p) && p['type'] === 'tool_call' && typeof p['name'] === 'string'
        ? [
            {
              id: typeof p['id'] === 'string' ? p['id'] : undefined,
              tool: p['name'],
              arguments:
                typeof p['arguments'] === 'string'
                  ? p['arguments']
                  : p['arguments'] === undefined
                    ? undefined
                    : JSON.stringify(p['arguments']),
            },
          ]
        : [],
    );
  });
}

/** The first user message a chat span sent: the agent's task, as far as a trace can tell. */
export function userMessage(span: FlatSpan): string | undefined {
  for (const key of Object.keys(span.attributes).sort(byIndices)) {
    const m = /^(llm\.input_messages\.(\d+)\.message|gen_ai\.prompt\.(\d+))\.role$/.exec(key);
    if (!m || str(span, key) !== 'user') continue;
    const content = str(span, `${m[1]}.content`);
    if (content !== undefined && content.trim() !== '') return content;
  }
  const messages = parseJson(str(span, 'gen_ai.input.messages'));
  if (!Array.isArray(messages)) return undefined;
  for (const m of messages as unknown[]) {
    if (!isObject(m) || m['role'] !== 'user') continue;
    const parts = Array.isArray(m['parts']) ? (m['parts'] as unknown[]) : [];
    const text = parts.find((p) => isObject(p) && typeof p['content'] === 'string') as { content: string } | undefined;
    if (text) return text.content;
    if (typeof m['content'] === 'string') return m['content'];
  }
  return undefined;
}

/** Keys with numeric segments in numeric order (`…2…` before `…10…`). */
function byIndices(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An attribute's value as one short line for a comment. */
export function showValue(v: AttrValue): string {
  const text = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
