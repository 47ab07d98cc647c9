import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';

// Node's own client class, from the module that defines it: msw and nock replace `http.request`,
// `https.request` and `http.ClientRequest` while they run (and nock from the moment it is
// imported), never this one, so requests made with it are sent for real. Only the model route
// of a `--record` or `--live` run uses it; everything else stays intercepted.
const { ClientRequest } = createRequire(import.meta.url)('_http_client') as {
  ClientRequest: typeof http.ClientRequest;
};

/** What came back from the real endpoint, body read whole (a stream of server-sent events too). */
export interface ForwardedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Headers that describe one hop, not the request: the real connection sets its own. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'accept-encoding',
]);

/**
 * Sends one request to the real endpoint past the interceptors and reads the whole answer.
 * `accept-encoding` is dropped so the answer comes back as text to record.
 */
export interface ForwardOptions {
  /** An attempt with no answer (or no next byte of one) for this long fails with `ETIMEDOUT`. */
  readonly timeoutMs?: number;
  /**
   * Reuse connections (the default). A trial's request to the live gateway opens its own and
   * closes it, so no socket outlives the trial on a worker.
   */
  readonly keepAlive?: boolean;
}

export function forwardRequest(
  url: string,
  method: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  options: ForwardOptions = {},
): Promise<ForwardedAnswer> {
  const { timeoutMs, keepAlive = true } = options;
  const target = new URL(url);
  const agent = !keepAlive ? false : target.protocol === 'https:' ? https.globalAgent : http.globalAgent;
  const outgoing: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (!HOP_HEADERS.has(name.toLowerCase())) outgoing[name.toLowerCase()] = value;
  outgoing['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const options = {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: `${target.pathname}${target.search}`,
      method,
      headers: outgoing,
      agent,
      ...(timeoutMs !== undefined && { timeout: timeoutMs }),
    };
    const req = new ClientRequest(options, (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
        const answer = { status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks).toString('utf8') };
        // A connection of its own is closed before the answer is given: a trial on a worker that
        // ended with it still open would have left a handle behind, and retire its worker for it.
        const socket = req.socket;
        if (!keepAlive && socket !== null && !socket.closed) {
          socket.once('close', () => resolve(answer));
          socket.destroy();
        } else resolve(answer);
      });
    });
    req.on('error', reject);
    // The socket's own idle timer (the `timeout` option), on the wall clock because the provider is real:
    // no answer (or no next byte of one) within timeoutMs is a timeout.
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error(`no answer within ${String(timeoutMs)} ms`), { code: 'ETIMEDOUT' })),
    );
    req.end(body);
  });
}
