/**
 * Code this team did not write, as a user's project holds it: an agent on the official `openai` SDK,
 * traced by the OpenTelemetry Node SDK with `@opentelemetry/instrumentation-openai` (its `chat` spans)
 * and its own `execute_tool` spans (the GenAI conventions), exporting OTLP/JSON over HTTP to
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`. It is CommonJS so the instrumentation patches `openai` as
 * `require` loads it, as in most services. Its tool call POSTs to the service holding the tool
 * (`FAULTLINE_SERVICES`) with a 1 s timeout and resends up to twice; `--no-idempotency-key` is the
 * planted defect: the resend after a lost answer carries no key.
 */
export const TRACED_AGENT = String.raw`'use strict';
const { trace, SpanKind, SpanStatusCode } = require('@opentelemetry/api');
const { NodeTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-node');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
const { resourceFromAttributes } = require('@opentelemetry/resources');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
const { writeFileSync } = require('node:fs');

const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'support-agent' }),
  spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter())],
});
provider.register();
registerInstrumentations({ instrumentations: [new OpenAIInstrumentation()] });
const { OpenAI } = require('openai');

const NO_KEY = process.argv.includes('--no-idempotency-key');
const services = JSON.parse(process.env.FAULTLINE_SERVICES);
const tracer = trace.getTracer('support-agent');
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'open_ticket',
      description: 'Open a support ticket. requestId is your business id for it.',
      parameters: { type: 'object', properties: { requestId: { type: 'string' }, subject: { type: 'string' } }, required: ['requestId', 'subject'] },
    },
  },
];

function post(url, body, key) {
  return tracer.startActiveSpan('POST', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'url.full': url } }, async (span) => {
    try {
      const headers = { 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) };
      if (key) span.setAttribute('http.request.header.idempotency-key', key);
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(1000) });
      span.setAttribute('http.response.status_code', res.status);
      if (res.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      return { status: res.status, text: await res.text() };
    } catch (error) {
      span.setAttribute('error.type', error.name);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      return { status: 0, text: JSON.stringify({ error: error.name }) };
    } finally {
      span.end();
    }
  });
}

function runTool(call) {
  const name = call.function.name;
  const attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': call.id, 'gen_ai.tool.call.arguments': call.function.arguments };
  return tracer.startActiveSpan('execute_tool ' + name, { attributes }, async (span) => {
    const args = JSON.parse(call.function.arguments);
    const base = Object.values(services).find((s) => s.tools.includes(name)).baseUrl;
    const key = NO_KEY ? undefined : name + '-' + args.requestId;
    let got;
    for (let attempt = 1; attempt <= 3; attempt++) {
      got = await post(base + '/tools/' + name, call.function.arguments, key);
      if (got.status !== 0 && got.status !== 429 && got.status < 500) break;
    }
    if (got.status >= 200 && got.status < 300) span.setAttribute('gen_ai.tool.call.result', got.text);
    else span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    return got.text;
  });
}

async function main() {
  const client = new OpenAI();
  const messages = [{ role: 'user', content: process.env.FAULTLINE_TASK }];
  for (let turn = 0; turn < 5; turn++) {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: TOOLS });
    const message = completion.choices[0].message;
    messages.push(message);
    const calls = message.tool_calls || [];
    if (calls.length === 0) return { outcome: 'completed', message: message.content || '' };
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: await runTool(call) });
  }
  return { outcome: 'failed' };
}

tracer
  .startActiveSpan('invoke_agent support-agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent' } }, async (root) => {
    try {
      writeFileSync(process.env.FAULTLINE_RESULT, JSON.stringify(await main()));
    } finally {
      root.end();
      await provider.shutdown();
    }
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
`;

/** The helpdesk the agent works against: RPC routes (`POST /tools/open_ticket`), one ticket per business id. */
export const HELPDESK_SERVICE = `import { defineService, z } from 'faultline';

export default defineService({
  name: 'helpdesk',
  state: {},
  tools: {
    open_ticket: {
      description: 'Open a support ticket.',
      risk: 'write',
      businessKey: 'requestId',
      input: z.object({ requestId: z.string(), subject: z.string() }).strict(),
      run(input, ctx) {
        const ticketId = ctx.id('tkt');
        ctx.effect('ticket.opened', { key: input.requestId, data: { ticketId } });
        return { ticketId };
      },
    },
  },
});
`;

/** The agent's run: the model asks for open_ticket, the first POST commits and its answer is lost. */
export const incidentScenario = (flags: string): string => `name: incident
services: [./helpdesk.service.mjs]
model:
  api: openai
  plan:
    steps:
      - tool: open_ticket
        input: { requestId: req-42, subject: Printer on fire }
faults:
  - match: { tool: open_ticket, attempt: 1 }
    fault: { kind: partial_write, lostAs: timeout }
agent:
  kind: command
  task: Open a ticket about the printer that is on fire.
  argv: [node, agent.cjs${flags}]
  timeoutMs: 30000
goal:
  effects: { ticket.opened: 1 }
`;
