import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { kvProblem, MAX_KV_VALUE } from '../core/kv.js';
import type { KvStore } from '../world/KvStore.js';

/** The checkpoint store on a socket: its address (`http://127.0.0.1:41234/kv`) and how to stop it. */
export interface ServedKv {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the trial's key-value checkpoint store to a program in any language, on its own port of
 * 127.0.0.1 and outside the fault plan (it is faultline's, not a service under test, and its
 * requests are not tool requests): `GET <url>/<key>` answers the value as text (404 when unset),
 * `PUT <url>/<key>` stores the request body, `DELETE <url>/<key>` removes it (both 204). Keys are
 * URL-encoded path segments.
 */
export async function serveKv(store: KvStore): Promise<ServedKv> {
  const server = http.createServer((req, res) => {
    // Only a client that went away mid-request rejects (its body aborted): nothing was written, nobody hears an answer.
    answer(store, req, res).catch(() => res.destroy());
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/kv`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(store: KvStore, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const send = (status: number, body = ''): void => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
  };
  const path = new URL(req.url ?? '/', 'http://kv').pathname;
  if (!path.startsWith('/kv/')) return send(404, `the checkpoint store answers at /kv/<key>; got ${path}\n`);
  const segment = path.slice('/kv/'.length);
  // One segment: a key with a slash in it is sent encoded (%2F), so a raw `/kv/a/b` is a mistake, not key "a/b".
  if (segment.includes('/')) return send(400, `expected one URL-encoded path segment after /kv/; got ${path}\n`);
  let key: string;
  try {
    key = decodeURIComponent(segment);
  } catch {
    return send(400, `the key is not a valid URL-encoded path segment: ${path}\n`);
  }
  const bad = kvProblem(key);
  if (bad !== undefined) return send(400, `${bad}\n`);
  if (req.method === 'GET') {
    const value = store.get(key);
    return value === undefined ? send(404, `no value for ${key}\n`) : send(200, value);
  }
  if (req.method === 'DELETE') {
    store.delete(key);
    return send(204);
  }
  if (req.method !== 'PUT') return send(405, `expected GET, PUT or DELETE; got ${req.method ?? '?'}\n`);
  const value = await bodyText(req);
  if (value === undefined) return send(413, `expected a value of at most ${MAX_KV_VALUE} characters\n`);
  store.set(key, value);
  send(204);
}

/** The request body as text, or `undefined` once it outgrows what the store takes. */
async function bodyText(req: http.IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Bytes bound characters from above: a body within the limit in bytes is within it in characters.
    if (size > MAX_KV_VALUE * 4) return undefined;
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length > MAX_KV_VALUE ? undefined : text;
}
