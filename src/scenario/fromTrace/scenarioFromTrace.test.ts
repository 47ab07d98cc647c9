import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sampleRun } from '../../report/testing.js';
import { renderOtlpTraces } from '../../report/otlp/renderOtlpTraces.js';
import { ScenarioDataSchema } from '../scenario.js';
import { otlpJson, retriedWriteTrace, TRACE_ID, type SpanSpec } from './otlpFixture.testkit.js';
import { scenarioFromTrace } from './scenarioFromTrace.js';
import { faultOf, LATENCY_MS } from './tracedFaults.js';
import type { TracedAttempt } from './tracedRun.js';

const imported = (body: unknown, traceId?: string) =>
  scenarioFromTrace({
    text: typeof body === 'string' ? body : JSON.stringify(body),
    file: 'trace.json',
    serviceModule: './incident.service.mjs',
    ...(traceId !== undefined && { traceId }),
  });
const scenarioOf = (text: string) => ScenarioDataSchema.parse(parse(text));

describe('scenarioFromTrace', () => {
  it('maps a retried write after a timeout: the call as the script, the timeout as a lost answer, the write as the goal', () => {
    const result = imported(otlpJson(retriedWriteTrace()));
    const scenario = scenarioOf(result.scenarioText);
    expect(scenario.name).toBe(`trace-${TRACE_ID.slice(0, 8)}`);
    expect(scenario.services).toEqual(['./incident.service.mjs']);
    expect(scenario.agent).toMatchObject({
      kind: 'scripted',
      task: 'Open a ticket: printer on fire.',
      plan: {
        steps: [{ tool: 'open_ticket', input: { requestId: 'req-42', subject: 'Printer on fire', urgent: true } }],
      },
    });
    // The retry that succeeded is the configuration's to make: only the first try has a rule.
    expect(scenario.faults).toEqual([
      { match: { tool: 'open_ticket', call: 1, attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'timeout' } },
    ]);
    expect(scenario.goal.effects).toEqual({ 'open_ticket.done': 1 });
    // Unread attributes stay as comments; the agent's own span is said on stderr.
    expect(result.scenarioText).toContain('#   app.tenant = "acme" (span "invoke_agent support")');
    expect(result.notes).toEqual([expect.stringMatching(/invoke_agent support.*invoke_agent is not mapped/)]);
    expect(result.serviceText).toContain(
      'input: z.object({ requestId: z.string(), subject: z.string(), urgent: z.boolean() }).strict()',
    );
    expect(result.serviceText).toContain('businessKey: "requestId"');
    expect(result.serviceText).toContain('risk: "write"');
  });

  it("reads the tool calls from OpenInference's and Traceloop's attributes when no execute_tool span carried them out", () => {
    const chat = (id: string, startMs: number, attributes: NonNullable<SpanSpec['attributes']>): SpanSpec => ({
      id,
      name: 'ChatCompletion',
      startMs,
      endMs: startMs + 100,
      attributes,
    });
    const result = imported(
      otlpJson([
        chat('a', 0, {
          'openinference.span.kind': 'LLM',
          'llm.input_messages.0.message.role': 'user',
          'llm.input_messages.0.message.content': 'Look up order 7, then refund it.',
          'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'get_order',
          'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"orderId":"7"}',
        }),
        chat('b', 200, {
          'llm.request.type': 'chat',
          'gen_ai.completion.0.tool_calls.0.name': 'refund_order',
          'gen_ai.completion.0.tool_calls.0.arguments': '{"orderId":"7","amountCents":1500}',
        }),
      ]),
    );
    const scenario = scenarioOf(result.scenarioText);
    expect(scenario.agent).toMatchObject({
      task: 'Look up order 7, then refund it.',
      plan: {
        steps: [
          { tool: 'get_order', input: { orderId: '7' } },
          { tool: 'refund_order', input: { orderId: '7', amountCents: 1500 } },
        ],
      },
    });
    expect(scenario.goal.effects).toEqual({ 'refund_order.done': 1 });
    expect(result.serviceText).toMatch(/"get_order": \{[^}]*risk: "read"/);
    expect(result.notes).toHaveLength(2);
    expect(result.notes[0]).toMatch(/the model's call of get_order .*no execute_tool span carried it out/);
  });

  it('maps each failed try to the fault faultline injects for it, by tool, call and try', () => {
    const tool = (id: string, name: string, startMs: number): SpanSpec => ({
      id,
      name: `execute_tool ${name}`,
      startMs,
      endMs: startMs + 50,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
        'gen_ai.tool.call.arguments': '{}',
      },
    });
    const attempt = (
      id: string,
      parent: string,
      startMs: number,
      attributes: NonNullable<SpanSpec['attributes']>,
      ms = 10,
    ): SpanSpec => ({
      id,
      parent,
      name: 'GET',
      startMs,
      endMs: startMs + ms,
      attributes: { 'http.request.method': 'GET', ...attributes },
    });
    const result = imported(
      otlpJson([
        tool('t1', 'list_items', 0),
        attempt('a1', 't1', 0, { 'http.response.status_code': 200 }),
        tool('t2', 'list_items', 100),
        attempt('a2', 't2', 100, { 'http.response.status_code': 429, 'http.response.header.retry-after': ['2'] }),
        attempt('a3', 't2', 110, { 'http.response.status_code': 503 }),
        attempt('a4', 't2', 120, { 'error.type': 'TimeoutError' }),
        attempt('a5', 't2', 130, { 'http.response.status_code': 200 }, LATENCY_MS + 500),
        attempt('a6', 't2', 140, { 'http.response.status_code': 418 }),
      ]),
    );
    expect(scenarioOf(result.scenarioText).faults).toEqual([
      { match: { tool: 'list_items', call: 2, attempt: 1 }, fault: { kind: 'rate_limit', retryAfter: 2 } },
      {
        match: { tool: 'list_items', call: 2, attempt: 2 },
        fault: { kind: 'unavailable', status: 503 },
        expect: 'may-not-fire',
      },
      { match: { tool: 'list_items', call: 2, attempt: 3 }, fault: { kind: 'timeout' }, expect: 'may-not-fire' },
      {
        match: { tool: 'list_items', call: 2, attempt: 4 },
        fault: { kind: 'latency', ms: LATENCY_MS + 500 },
        expect: 'may-not-fire',
      },
    ]);
    expect(result.notes).toEqual([expect.stringMatching(/^list_items call 2, try 5 .*HTTP status 418 .*not mapped$/)]);
    expect(result.scenarioText).not.toContain('goal:');
  });

  it('tells quota from a rate limit, and a network error by its code', () => {
    const a = (over: Partial<TracedAttempt>): TracedAttempt => ({
      ms: 5,
      status: undefined,
      errorType: undefined,
      failed: true,
      retryAfterMs: undefined,
      keyed: false,
      ...over,
    });
    expect(faultOf(a({ status: 429, errorType: 'insufficient_quota' }), 'write')).toEqual({
      fault: { kind: 'quota_exceeded' },
    });
    expect(faultOf(a({ errorType: 'read ECONNRESET' }), 'read')).toEqual({
      fault: { kind: 'network', code: 'ECONNRESET' },
    });
    expect(faultOf(a({ status: 403 }), 'write')).toEqual({ fault: { kind: 'permission_denied', status: 403 } });
    expect(faultOf(a({ failed: false, ms: LATENCY_MS - 1 }), 'read')).toBeUndefined();
  });

  it("imports faultline's own --reporter otlp output: the trial's call and its lost answer, the rest as comments", () => {
    const text = renderOtlpTraces(sampleRun());
    expect(() => imported(text)).toThrow(
      /trace\.json: holds 16 traces; pick one with --trace-id:\n {2}[0-9a-f]{32} {2}"trial /,
    );
    const spans = (
      JSON.parse(text) as {
        resourceSpans: {
          scopeSpans: {
            spans: { traceId: string; name: string; attributes: { key: string; value: { stringValue?: string } }[] }[];
          }[];
        }[];
      }
    ).resourceSpans[0]!.scopeSpans[0]!.spans;
    const failed = spans.find(
      (s) =>
        s.name === 'trial order-partial-write' &&
        s.attributes.some((a) => a.key === 'faultline.verdict' && a.value.stringValue === 'failed'),
    )!;
    const result = imported(text, failed.traceId.toUpperCase());
    const scenario = scenarioOf(result.scenarioText);
    expect(scenario.faults).toEqual([
      { match: { tool: 'create_order', call: 1, attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'timeout' } },
    ]);
    expect(scenario.agent).toMatchObject({ plan: { steps: [{ tool: 'create_order', input: {} }] } });
    expect(result.scenarioText).toContain(
      '#   faultline.replay = "faultline replay order-partial-write --config naive',
    );
    expect(result.notes).toContainEqual(expect.stringMatching(/no arguments in the trace/));
  });

  it('refuses bad input naming the file, the path in it and what was expected', () => {
    expect(() => imported('{"resourceSpans": [')).toThrow(/^trace\.json: not JSON \(.*\); expected OTLP\/JSON traces$/);
    expect(() => imported({ spans: [] })).toThrow(
      /trace\.json: not OTLP\/JSON traces:\n {2}- resourceSpans: expected an array/,
    );
    const broken = otlpJson(retriedWriteTrace()) as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    broken.resourceSpans[0]!.scopeSpans[0]!.spans[2]!['startTimeUnixNano'] = 'soon';
    expect(() => imported(broken)).toThrow(/resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[2\]\.startTimeUnixNano: /);
    expect(() => imported(otlpJson([{ id: 'x', name: 'GET /', startMs: 0, endMs: 1 }]))).toThrow(
      /trace\.json: trace 4bf9.* has no GenAI spans; expected spans with gen_ai\.operation\.name chat or execute_tool/,
    );
    expect(() => imported(otlpJson(retriedWriteTrace()), 'abc123')).toThrow(
      /^--trace-id abc123: no such trace in trace\.json; expected one of:\n {2}4bf92f3577b34da6a3ce929d0e0e4736/,
    );
    expect(() => imported({ resourceSpans: [] })).toThrow(/trace\.json: resourceSpans: no spans/);
  });

  it('keeps what is shaped like a credential out of both files and the notes (R13)', () => {
    const [root, chat, tool, ...rest] = retriedWriteTrace();
    const leaky: SpanSpec[] = [
      { ...root!, attributes: { ...root!.attributes, 'http.request.header.authorization': 'Bearer abc.def.ghi' } },
      chat!,
      {
        ...tool!,
        attributes: {
          ...tool!.attributes,
          'gen_ai.tool.call.arguments': '{"requestId":"req-42","apiKey":"sk-live-4f9a8b7c6d5e4f3a2b1c"}',
        },
      },
      ...rest,
    ];
    const result = imported(otlpJson(leaky));
    for (const text of [result.scenarioText, result.serviceText, ...result.notes]) {
      expect(text).not.toContain('abc.def.ghi');
      expect(text).not.toContain('sk-live-4f9a8b7c6d5e4f3a2b1c');
    }
    expect(result.scenarioText).toContain('#   http.request.header.authorization = [REDACTED]');
  });

  it('keeps plain values under credential-named keys out of the scenario, the service module, the comments and the notes (R13)', () => {
    const [root, chat, tool, ...rest] = retriedWriteTrace();
    const secrets = ['plainsecretvalue99', 'hunter2hunter2', 'tok_zzzyyyxxx111', 'qqqwwweeerrr123', 'resultsecret777'];
    const leaky: SpanSpec[] = [
      { ...root!, attributes: { ...root!.attributes, 'app.login': 'api_key=commentsecret555' } },
      chat!,
      {
        ...tool!,
        attributes: {
          ...tool!.attributes,
          'gen_ai.tool.call.arguments': JSON.stringify({
            requestId: 'req-42',
            apiKey: 'plainsecretvalue99',
            password: 'hunter2hunter2',
            auth: { token: 'tok_zzzyyyxxx111' },
            note: 'api_key=qqqwwweeerrr123',
          }),
          'gen_ai.tool.call.result': '{"ticketId":"tkt-1","session":{"accessToken":"resultsecret777"}}',
        },
      },
      ...rest,
      {
        id: 'tool2',
        name: 'execute_tool log_in',
        startMs: 8000,
        endMs: 8100,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'log_in',
          'gen_ai.tool.call.arguments': 'password=stderrsecret444',
        },
      },
    ];
    const result = imported(otlpJson(leaky));
    for (const text of [result.scenarioText, result.serviceText, ...result.notes])
      for (const secret of [...secrets, 'commentsecret555', 'stderrsecret444']) expect(text).not.toContain(secret);
    const steps = (scenarioOf(result.scenarioText).agent as { plan: { steps: { input: unknown }[] } }).plan.steps;
    expect(steps[0]!.input).toEqual({
      requestId: 'req-42',
      apiKey: '[REDACTED]',
      password: '[REDACTED]',
      auth: { token: '[REDACTED]' },
      note: 'api_key=[REDACTED]',
    });
    expect(result.notes).toContainEqual(expect.stringContaining('password=[REDACTED]'));
  });

  it('says where a file is not JSON without quoting it (R13)', () => {
    const text = '{"resourceSpans": [], "password": hunter2hunter2}';
    expect(() => imported(text)).toThrow(
      /^trace\.json: not JSON \(.* at line 1, column 35\); expected OTLP\/JSON traces$/,
    );
    expect(() => imported(text)).not.toThrow(/hunter2|assword/);
    const lines = `${JSON.stringify(otlpJson(retriedWriteTrace()))}\n{"token": tok_abcdefghijkl}\n`;
    // Column 12, the `o`: a `t` may start `true`, as JSON.parse reads it.
    expect(() => imported(lines)).toThrow(/^trace\.json: line 2: not JSON \(.* at column 12\); expected/);
    expect(() => imported(lines)).not.toThrow(/tok_|abcdef/);
  });

  it("reads the Collector's file exporter format: one request per line", () => {
    const [first, ...rest] = retriedWriteTrace();
    const lines = `${JSON.stringify(otlpJson([first!]))}\n${JSON.stringify(otlpJson(rest))}\n`;
    expect(scenarioOf(imported(lines).scenarioText).faults).toHaveLength(1);
    expect(() => imported(`${JSON.stringify(otlpJson([first!]))}\n{oops\n`)).toThrow(/^trace\.json: line 2: not JSON/);
  });
});
