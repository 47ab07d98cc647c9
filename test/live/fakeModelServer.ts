/**
 * A small OpenAI Chat Completions and Anthropic Messages compatible server on 127.0.0.1, for the
 * live-model tests and `bench/live.ts` (no model provider can be reached from these machines).
 *
 * It answers tool-calling conversations from a seeded random policy: on the first turn it calls
 * the scenario's tool with probability `callProbability`, else it finishes at once claiming
 * success (the goal then fails: that is the agent's true failure rate); once a tool result is in
 * the conversation it calls the tool for the next ticket or finishes. It sleeps `latencyMs`
 * before each answer, fails a share of requests on its own (429 with `retry-after-ms`, 500, 503,
 * or a dropped connection), reports `usage`, streams when asked, and counts requests in flight.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeModelOptions {
  readonly seed?: number;
  /** Chance that the first turn calls the tool (else the model claims success without it). */
  readonly callProbability?: number;
  /** Tickets to open, one tool call each, before the final answer: model calls per trial = tickets + 1. */
  readonly tickets?: number;
  readonly latencyMs?: number;
  /** Chance that a request is failed by the server itself (429, 500, 503 in turn, or a dropped connection). */
  readonly errorRate?: number;
  /** Which own errors it picks from, in turn. */
  readonly errors?: readonly ('429' | '500' | '503' | 'drop')[];
  /**
   * Holds each answer (after its latency) until this many requests are in flight, or `maxWaitMs`
   * passed: requests that can overlap then do, however unevenly the client's workers start, so a
   * test sees the connection limit reached (and never passed) without timing anything. Once that
   * many have been in flight, nothing more is held: the limit is shown reached, and holding a
   * request no other one will join (the run's last trials, left to one worker) would only wait
   * `maxWaitMs` each time (it made one test 95 s, of which 80 s were such waits).
   */
  readonly gather?: { readonly inFlight: number; readonly maxWaitMs: number };
  /** Token counts reported per answer. */
  readonly usage?: { readonly input: number; readonly output: number; readonly cached?: number };
}

export interface SeenRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly apiKey: string | undefined;
  readonly body: Record<string, unknown>;
}

export interface FakeModelServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** The most requests it was answering at once. */
  readonly maxInFlight: () => number;
  /** Requests it failed on its own. */
  readonly failures: () => number;
  close(): Promise<void>;
}

/** mulberry32: a seeded generator, so a policy's draws repeat from its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Decision =
  { readonly kind: 'call'; readonly ticket: number } | { readonly kind: 'final'; readonly tickets: number };

const ticketId = (n: number): string => `req-${n}`;
const finalText = (tickets: number): string =>
  JSON.stringify({
    outcome: 'completed',
    message: tickets === 0 ? 'Done.' : 'Tickets opened.',
    claims: Array.from({ length: Math.max(tickets, 1) }, (_, i) => ({
      subject: `helpdesk:${ticketId(i + 1)}`,
      status: 'succeeded',
    })),
  });

/** How many tool results the conversation holds, in either API's shape. */
function toolResults(body: Record<string, unknown>): number {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Record<string, unknown>[]) : [];
  let n = 0;
  for (const m of messages) {
    if (m['role'] === 'tool') n++;
    if (m['role'] === 'user' && Array.isArray(m['content']))
      n += (m['content'] as Record<string, unknown>[]).filter((b) => b['type'] === 'tool_result').length;
  }
  return n;
}

function chatAnswer(
  decision: Decision,
  usage: FakeModelOptions['usage'] & object,
  model: string,
  id: string,
): { message: Record<string, unknown>; finish: string; body: Record<string, unknown> } {
  const message =
    decision.kind === 'call'
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${id}`,
              type: 'function',
              function: {
                name: 'open_ticket',
                arguments: JSON.stringify({ requestId: ticketId(decision.ticket), subject: 'Printer on fire' }),
              },
            },
          ],
        }
      : { role: 'assistant', content: finalText(decision.tickets) };
  const finish = decision.kind === 'call' ? 'tool_calls' : 'stop';
  const u = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    ...(usage.cached ? { prompt_tokens_details: { cached_tokens: usage.cached } } : {}),
  };
  return {
    message,
    finish,
    body: {
      id: `chatcmpl-${id}`,
      object: 'chat.completion',
      created: 1_767_600_000,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: u,
    },
  };
}

function anthropicAnswer(
  decision: Decision,
  usage: FakeModelOptions['usage'] & object,
  model: string,
  id: string,
): Record<string, unknown> {
  const content =
    decision.kind === 'call'
      ? [
          {
            type: 'tool_use',
            id: `toolu_${id}`,
            name: 'open_ticket',
            input: { requestId: ticketId(decision.ticket), subject: 'Printer on fire' },
          },
        ]
      : [{ type: 'text', text: finalText(decision.tickets) }];
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: decision.kind === 'call' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      ...(usage.cached ? { cache_read_input_tokens: usage.cached } : {}),
    },
  };
}

const sse = (event: string | undefined, data: unknown): string =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

function chatStream(
  decision: Decision,
  usage: FakeModelOptions['usage'] & object,
  model: string,
  id: string,
  includeUsage: boolean,
): string {
  const { message, finish, body } = chatAnswer(decision, usage, model, id);
  const base = { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: 1_767_600_000, model };
  const chunk = (delta: unknown, finishReason: string | null): string =>
    sse(undefined, {
      ...base,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    });
  let out = chunk({ role: 'assistant', content: decision.kind === 'call' ? null : '' }, null);
  if (decision.kind === 'call') {
    const call = (message['tool_calls'] as { id: string; function: { name: string; arguments: string } }[])[0]!;
    out += chunk(
      {
        tool_calls: [
          { index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
        ],
      },
      null,
    );
    out += chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }, null);
  } else out += chunk({ content: message['content'] }, null);
  out += chunk({}, finish);
  if (includeUsage) out += sse(undefined, { ...base, choices: [], usage: body['usage'] });
  return `${out}data: [DONE]\n\n`;
}

function anthropicStream(message: Record<string, unknown>): string {
  const usage = message['usage'] as { input_tokens: number; output_tokens: number };
  let out = sse('message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  });
  (message['content'] as Record<string, unknown>[]).forEach((block, index) => {
    if (block['type'] === 'tool_use') {
      out += sse('content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) },
      });
    } else {
      out += sse('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block['text'] },
      });
    }
    out += sse('content_block_stop', { type: 'content_block_stop', index });
  });
  out += sse('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: message['stop_reason'], stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  return out + sse('message_stop', { type: 'message_stop' });
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startFakeModelServer(options: FakeModelOptions = {}): Promise<FakeModelServer> {
  const random = seeded(options.seed ?? 1);
  const callProbability = options.callProbability ?? 1;
  const tickets = options.tickets ?? 1;
  const latencyMs = options.latencyMs ?? 0;
  const errorRate = options.errorRate ?? 0;
  const errors = options.errors ?? ['429', '500', '503'];
  const usage = options.usage ?? { input: 100, output: 20 };
  const requests: SeenRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let failures = 0;
  let served = 0;

  const decide = (body: Record<string, unknown>): Decision => {
    const done = toolResults(body);
    if (done === 0) return random() < callProbability ? { kind: 'call', ticket: 1 } : { kind: 'final', tickets: 0 };
    return done < tickets ? { kind: 'call', ticket: done + 1 } : { kind: 'final', tickets };
  };

  const answer = (req: IncomingMessage, res: ServerResponse, text: string): void => {
    const path = (req.url ?? '').split('?')[0]!;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not JSON' } }));
      return;
    }
    requests.push({
      path,
      authorization: req.headers.authorization,
      apiKey: req.headers['x-api-key'] as string | undefined,
      body,
    });
    if (random() < errorRate) {
      const kind = errors[failures++ % errors.length]!;
      if (kind === 'drop') {
        req.socket.destroy();
        return;
      }
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(kind === '429' ? { 'retry-after-ms': '20' } : {}),
      };
      res.writeHead(Number(kind), headers).end(
        JSON.stringify({
          error: {
            type: kind === '429' ? 'rate_limit_error' : 'server_error',
            message: `the fake provider failed this request (${kind})`,
          },
        }),
      );
      return;
    }
    const id = String(++served);
    const model = typeof body['model'] === 'string' ? body['model'] : 'fake-model';
    const decision = decide(body);
    const stream = body['stream'] === true;
    if (path.endsWith('/chat/completions')) {
      if (stream) {
        const includeUsage =
          (body['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage === true;
        res
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(chatStream(decision, usage, model, id, includeUsage));
      } else
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(chatAnswer(decision, usage, model, id).body));
      return;
    }
    if (path.endsWith('/messages')) {
      const message = anthropicAnswer(decision, usage, model, id);
      if (stream) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(anthropicStream(message));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
      return;
    }
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: `no route ${path}` } }));
  };

  const gathering: (() => void)[] = [];
  const gathered = (): void => {
    if (options.gather !== undefined && inFlight >= options.gather.inFlight)
      for (const release of gathering.splice(0)) release();
  };
  const held = (then: () => void): void => {
    if (options.gather === undefined || maxInFlight >= options.gather.inFlight) return then();
    let done = false;
    const release = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      then();
    };
    const timer = setTimeout(release, options.gather.maxWaitMs);
    gathering.push(release);
  };

  const server: Server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    gathered();
    let settled = false;
    const leave = (): void => {
      if (settled) return;
      settled = true;
      inFlight--;
    };
    res.on('close', leave);
    let text = '';
    req.setEncoding('utf8').on('data', (d: string) => (text += d));
    req.on('end', () => setTimeout(() => held(() => answer(req, res, text)), latencyMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    maxInFlight: () => maxInFlight,
    failures: () => failures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
