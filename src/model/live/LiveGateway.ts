import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realSleep, RealClock, type ModelUsage } from '../../core/index.js';
import { parseRetryAfter } from '../../core/retryAfter.js';
import { forwardRequest, type ForwardedAnswer } from '../api/forwardRequest.js';
import { streamUsageOf, usageOf } from '../api/usage.js';
import { sseFrames } from '../../faults/http/sse.js';
import {
  GATEWAY_API_HEADER as API_HEADER,
  GATEWAY_INFRA_ERROR_HEADER as INFRA_ERROR_HEADER,
  GATEWAY_UPSTREAM_HEADER as UPSTREAM_HEADER,
} from '../api/recordedService.js';
import { bodyValue, requestKey } from '../api/Cassette.js';
import { ConnectionLimit } from './ConnectionLimit.js';

import { DEFAULT_LIVE_RETRY, type LiveRetryPolicy } from './liveDefaults.js';

/** Statuses a provider answers when it, not the request, is the problem: retried, never shown to the agent. */
const PROVIDER_TROUBLE = new Set([408, 429, 500, 502, 503, 504, 529]);

/** One model answer that came back, for the run's running totals. */
export interface LiveAnswer {
  readonly model: string | undefined;
  readonly usage: ModelUsage | undefined;
  /** Where it was sent: which scenario's model endpoint (a scenario may name its model for pricing). */
  readonly url: string;
}

export interface LiveGatewayOptions {
  readonly maxConnections: number;
  readonly retry?: LiveRetryPolicy;
  /** The keys, by API; set on the forwarded request only. */
  readonly keys: Readonly<Partial<Record<'openai' | 'anthropic', string>>>;
  /** The endpoints it may forward to (each scenario's model root): anything else is refused. */
  readonly upstreams: readonly string[];
  readonly onAnswer?: (answer: LiveAnswer) => void;
  /**
   * `--record`: a request already sent (same endpoint, same body as canonical JSON) is answered
   * with the answer the first sending got, not sent again: an SDK's retry or a later trial costs
   * nothing, and every trial's recording holds the same answer to the same request.
   */
  readonly reuseAnswers?: boolean;
  /**
   * Asked before each request is sent (with its connection held): a reason stops it unsent, and its
   * trial ends not judged (`--max-cost` reached: trials in flight must not keep spending).
   */
  readonly admit?: (othersInFlight: number) => string | undefined;
}

export interface LiveGateway {
  readonly url: string;
  readonly stats: () => {
    readonly inFlight: number;
    readonly maxInFlight: number;
    readonly retries: number;
    readonly infraErrors: number;
  };
  close(): Promise<void>;
}

const authHeaders = (api: string, key: string): Record<string, string> =>
  api === 'anthropic' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8').on('data', (d: string) => (text += d));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function modelNamed(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { model?: unknown };
    return typeof body.model === 'string' ? body.model : undefined;
  } catch {
    return undefined;
  }
}

/** How long to wait before retry `attempt`: the provider's `Retry-After` (capped) if it gave one, else exponential backoff. */
function waitBefore(retry: LiveRetryPolicy, attempt: number, answer: ForwardedAnswer | undefined, now: number): number {
  const backoff = Math.min(retry.maxBackoffMs, retry.baseMs * 2 ** (attempt - 1));
  const ms = answer?.headers['retry-after-ms'];
  const hinted =
    ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())
      ? Number(ms)
      : parseRetryAfter(answer?.headers['retry-after'], now);
  return hinted === undefined ? backoff : Math.min(hinted, retry.maxRetryAfterMs);
}

/** The agent's request headers, less faultline's own and any credentials: the gateway sets the key. */
function forwardedHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (
      typeof value !== 'string' ||
      name.startsWith('x-faultline-') ||
      name === 'authorization' ||
      name === 'x-api-key'
    )
      continue;
    headers[name] = value;
  }
  return headers;
}

function answerUsage(answer: ForwardedAnswer): ModelUsage | undefined {
  const type = answer.headers['content-type'] ?? '';
  return answer.status < 300
    ? type.startsWith('text/event-stream')
      ? streamUsageOf(sseFrames(answer.body))
      : usageOf(answer.body)
    : undefined;
}

/** The provider's answer, as it came, less the headers of the connection it came on. */
function sendAnswer(res: ServerResponse, answer: ForwardedAnswer): void {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers))
    if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value;
  res.writeHead(answer.status, out).end(answer.body);
}

type Forwarded = { answer: ForwardedAnswer } | { failed: string; stopped?: true };

interface ForwardContext {
  readonly retry: LiveRetryPolicy;
  readonly limit: ConnectionLimit;
  readonly clock: RealClock;
  readonly admit?: (othersInFlight: number) => string | undefined;
  /** The gateway's running totals, for its stats. */
  readonly counts: { retries: number; infraErrors: number };
}

/** Sends one request to the provider, retrying its trouble, each attempt holding a connection. */
async function forwardWithRetries(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
  { retry, limit, clock, admit, counts }: ForwardContext,
): Promise<Forwarded> {
  let why = '';
  for (let attempt = 1; attempt <= retry.retries + 1; attempt++) {
    let answer: ForwardedAnswer | undefined;
    const free = await limit.acquire();
    const refused = admit?.(limit.held - 1);
    if (refused !== undefined) {
      free();
      return { failed: refused, stopped: true };
    }
    try {
      answer = await forwardRequest(url, method, headers, body, { timeoutMs: retry.timeoutMs });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      why =
        code === 'ETIMEDOUT'
          ? `no answer within ${retry.timeoutMs} ms`
          : `the connection failed (${code ?? (error as Error).message})`;
    } finally {
      free();
    }
    if (answer && !PROVIDER_TROUBLE.has(answer.status)) return { answer };
    if (answer) why = `it answered ${answer.status}`;
    if (attempt > retry.retries) break;
    counts.retries++;
    await realSleep(waitBefore(retry, attempt, answer, clock.now()));
  }
  counts.infraErrors++;
  return { failed: `the model provider failed ${retry.retries + 1} times (${retry.retries} retries); last: ${why}` };
}

/**
 * Every live model request of a run goes through here, in the main thread, whatever worker its
 * trial runs on: at most `maxConnections` in flight, the key set on the way out (so it never
 * reaches a worker or a trial), and the provider's own 429s, 5xx, timeouts and dropped
 * connections retried with backoff and `Retry-After`, invisible to the agent. A request that
 * still fails is answered with `INFRA_ERROR_HEADER`, and its trial ends `infra-error`.
 */
export async function startLiveGateway(options: LiveGatewayOptions): Promise<LiveGateway> {
  const retry = options.retry ?? DEFAULT_LIVE_RETRY;
  const limit = new ConnectionLimit(options.maxConnections);
  const clock = new RealClock();
  const counts = { retries: 0, infraErrors: 0 };
  const answered = new Map<string, Promise<Forwarded>>();
  const allowed = (url: string): boolean =>
    options.upstreams.some((u) => url === u || url.startsWith(`${u.replace(/\/+$/, '')}/`));

  const forward = (url: string, method: string, headers: Record<string, string>, body: string): Promise<Forwarded> =>
    forwardWithRetries(url, method, headers, body, {
      retry,
      limit,
      clock,
      counts,
      ...(options.admit && { admit: options.admit }),
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = String(req.headers[UPSTREAM_HEADER] ?? '');
    const api = String(req.headers[API_HEADER] ?? '');
    const key = options.keys[api as 'openai' | 'anthropic'];
    const body = await read(req);
    if (!allowed(url) || key === undefined) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: { message: `the live gateway forwards only to this run's model endpoints; not to ${url}` },
        }),
      );
      return;
    }
    const headers = forwardedHeaders(req);
    const method = req.method ?? 'POST';
    const send = (): Promise<Forwarded> => forward(url, method, { ...headers, ...authHeaders(api, key) }, body);
    const sameAs = requestKey(method, url, bodyValue(body));
    const earlier = options.reuseAnswers === true ? answered.get(sameAs) : undefined;
    const pending = earlier ?? send();
    // Kept while in flight too: two trials sending the same request at once share one answer.
    if (options.reuseAnswers === true && earlier === undefined) answered.set(sameAs, pending);
    const result = await pending;
    if ('failed' in result) {
      // A failure is not an answer: the next sending tries the provider again.
      if (answered.get(sameAs) === pending) answered.delete(sameAs);
      res
        .writeHead(502, { 'content-type': 'application/json', [INFRA_ERROR_HEADER]: '1' })
        .end(JSON.stringify({ error: { type: 'faultline_infra_error', message: result.failed } }));
      return;
    }
    const { answer } = result;
    // Only what the provider was paid for counts toward the run's tokens.
    if (earlier === undefined) options.onAnswer?.({ model: modelNamed(body), usage: answerUsage(answer), url });
    sendAnswer(res, answer);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `the live gateway failed: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats: () => ({
      inFlight: limit.held,
      maxInFlight: limit.most,
      retries: counts.retries,
      infraErrors: counts.infraErrors,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
