/** OTLP/JSON as an instrumented agent's exporter writes it, built in tests span by span. */

type Attr = string | number | boolean | readonly string[];

export interface SpanSpec {
  readonly id: string;
  readonly parent?: string;
  readonly name: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes?: Readonly<Record<string, Attr>>;
  readonly error?: string;
  readonly traceId?: string;
}

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

const value = (v: Attr): Record<string, unknown> =>
  Array.isArray(v)
    ? { arrayValue: { values: v.map((x: string) => ({ stringValue: x })) } }
    : typeof v === 'string'
      ? { stringValue: v }
      : typeof v === 'boolean'
        ? { boolValue: v }
        : Number.isInteger(v)
          ? { intValue: String(v) }
          : { doubleValue: v };

const nanos = (ms: number): string => (BigInt(1_733_500_000_000 + ms) * 1_000_000n).toString();

/** An `ExportTraceServiceRequest` holding `spans` (ids: the spec's `id`, padded to 16 hex digits). */
export function otlpJson(spans: readonly SpanSpec[], service = 'support-agent'): Record<string, unknown> {
  const hex = (id: string): string => Buffer.from(id).toString('hex').padStart(16, '0').slice(-16);
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [
          {
            scope: { name: 'agent' },
            spans: spans.map((s) => ({
              traceId: s.traceId ?? TRACE_ID,
              spanId: hex(s.id),
              ...(s.parent !== undefined && { parentSpanId: hex(s.parent) }),
              name: s.name,
              kind: 3,
              startTimeUnixNano: nanos(s.startMs),
              endTimeUnixNano: nanos(s.endMs),
              attributes: Object.entries(s.attributes ?? {}).map(([key, v]) => ({ key, value: value(v) })),
              status: s.error === undefined ? { code: 0 } : { code: 2, message: s.error },
            })),
          },
        ],
      },
    ],
  };
}

/**
 * The incident of issue 46: the model asks for open_ticket; the agent's first POST times out after
 * 5 s, and it posts again without an idempotency key (the answer was lost, the ticket was made).
 */
export const retriedWriteTrace = (): SpanSpec[] => [
  {
    id: 'root',
    name: 'invoke_agent support',
    startMs: 0,
    endMs: 9000,
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'app.tenant': 'acme' },
  },
  {
    id: 'chat1',
    parent: 'root',
    name: 'chat gpt-4o-mini',
    startMs: 10,
    endMs: 900,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'Open a ticket: printer on fire.' }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([
        {
          role: 'assistant',
          parts: [
            {
              type: 'tool_call',
              id: 'call_1',
              name: 'open_ticket',
              arguments: { requestId: 'req-42', subject: 'Printer on fire', urgent: true },
            },
          ],
        },
      ]),
    },
  },
  {
    id: 'tool1',
    parent: 'root',
    name: 'execute_tool open_ticket',
    startMs: 1000,
    endMs: 6400,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'open_ticket',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.call.result': '{"ticketId":"tkt-1"}',
    },
  },
  {
    id: 'try1',
    parent: 'tool1',
    name: 'POST',
    startMs: 1000,
    endMs: 6000,
    attributes: { 'http.request.method': 'POST', 'error.type': 'TimeoutError' },
    error: 'The operation was aborted due to timeout',
  },
  {
    id: 'try2',
    parent: 'tool1',
    name: 'POST',
    startMs: 6000,
    endMs: 6300,
    attributes: { 'http.request.method': 'POST', 'http.response.status_code': 201 },
  },
  {
    id: 'chat2',
    parent: 'root',
    name: 'chat gpt-4o-mini',
    startMs: 6500,
    endMs: 7000,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 120,
    },
  },
];
