import http from 'node:http';
import https from 'node:https';

// Node's own request functions, taken when this module loads, before any trial starts: msw and
// nock replace the modules' exports while they run, so these send for real. Only the model
// route of a `--record` or `--live` run uses them; everything else stays intercepted.
const sendHttp = http.request;
const sendHttps = https.request;

/** What came back from the real endpoint, body read whole (a stream of server-sent events too). */
export interface ForwardedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Headers that describe one hop, not the request: the real connection sets its own. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

/**
 * Sends one request to the real endpoint past the interceptors and reads the whole answer.
 * `accept-encoding` is dropped so the answer comes back as text to record.
 */
export function forwardRequest(url: string, method: string, headers: Readonly<Record<string, string>>, body: string): Promise<ForwardedAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? sendHttps : sendHttp;
  const outgoing: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_HEADERS.has(name.toLowerCase())) outgoing[name.toLowerCase()] = value;
  outgoing['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = send(target, { method, headers: outgoing }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
