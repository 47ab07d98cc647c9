import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpFaults } from '../faults/http/HttpFaults.js';
import type { HttpAnswer } from '../faults/http/HttpAnswer.js';

/** One origin the fault engine serves, and where it listens on loopback. */
export interface ServedOrigin {
  /** As the scenario declares it: `https://orders.faultline.test`, `https://api.openai.com`. */
  readonly declared: string;
  /** Where it answers: `http://127.0.0.1:41234`. */
  readonly served: string;
}

/** The world's services and model API on real sockets, under the fault plan. */
export interface ServedWorld {
  readonly origins: readonly ServedOrigin[];
  /** A declared base URL (`https://api.openai.com/v1`) at its served address (`http://127.0.0.1:41234/v1`). */
  urlOf(baseUrl: string): string;
  /** Records every exchange still open as lost, drops every connection and stops listening. Idempotent. */
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Loopback only, by default: the served world is the harness's, not the network's. */
  readonly host?: string;
  /** The port to listen on for a declared origin (default: a free one): `faultline serve` keeps its addresses from trial to trial. */
  readonly ports?: Readonly<Record<string, number>>;
  /** What to do with a request no route takes (default: a 404 naming it). */
  readonly onUnrouted?: (method: string, url: string) => void;
  /** Declared origins served elsewhere (the MCP endpoint, which outlives a trial): no socket here. */
  readonly exclude?: readonly string[];
}

/**
 * Serves `faults`' routes over real HTTP: one node:http server per origin, on a free port of
 * 127.0.0.1. Each request is handed to the same `HttpFaults.exchange` the msw and nock adapters
 * call, at its declared URL, so routing, fault choice and the history are theirs; this file only
 * puts the answer on a socket: a status and body, a reset connection, or silence until the client
 * gives up (its closing the socket is the abort signal the engine waits for).
 */
export async function serveFaults(faults: HttpFaults, options: ServeOptions = {}): Promise<ServedWorld> {
  const host = options.host ?? '127.0.0.1';
  const servers: http.Server[] = [];
  const origins: ServedOrigin[] = [];
  try {
    for (const declared of faults.origins) {
      if (options.exclude?.includes(declared)) continue;
      const server = http.createServer(
        (req, res) => void answerRequest(faults, declared, req, res, options.onUnrouted),
      );
      // A client that resets its own connection is the client's business, not a harness crash.
      server.on('clientError', (_error, socket) => socket.destroy());
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.ports?.[declared] ?? 0, host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      origins.push({ declared, served: `http://${host}:${port}` });
    }
  } catch (error) {
    await closeAll(servers);
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    origins,
    urlOf(baseUrl) {
      const url = new URL(baseUrl);
      const found = origins.find((o) => o.declared === url.origin);
      if (!found)
        throw new TypeError(`${baseUrl} is not served here (served: ${origins.map((o) => o.declared).join(', ')})`);
      return `${found.served}${url.pathname.replace(/\/+$/, '')}`;
    },
    close() {
      closed ??= (async () => {
        faults.close();
        await closeAll(servers);
      })();
      return closed;
    },
  };
}

async function closeAll(servers: readonly http.Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve();
          server.close(() => resolve());
          // Keep-alive sockets and hung exchanges would hold `close` open for ever.
          server.closeAllConnections();
        }),
    ),
  );
}

function lowerHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function answerRequest(
  faults: HttpFaults,
  declared: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  onUnrouted: ServeOptions['onUnrouted'],
): Promise<void> {
  const gaveUp = new AbortController();
  // The client closing its socket before the answer is written is the engine's "client gave up".
  res.on('close', () => {
    if (!res.writableFinished) gaveUp.abort(new DOMException('the client closed the connection', 'AbortError'));
  });
  let body: string;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks).toString('utf8');
  } catch {
    return; // The client went away mid-request: nothing arrived.
  }
  const method = req.method ?? 'GET';
  const url = `${declared}${req.url ?? '/'}`;
  let answer: HttpAnswer | undefined;
  try {
    answer = await faults.exchange({ method, url, headers: lowerHeaders(req.headers), body }, gaveUp.signal);
  } catch (error) {
    answer = {
      kind: 'respond',
      status: 500,
      statusText: 'Internal Server Error',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { type: 'faultline_error', message: String(error) } }),
    };
  }
  if (!answer) {
    onUnrouted?.(method, url);
    const message = `faultline: no route of this scenario takes ${method} ${new URL(url).pathname} (served for ${declared})`;
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { type: 'not_found', message } }));
    return;
  }
  write(answer, req, res);
}

function write(answer: HttpAnswer, req: http.IncomingMessage, res: http.ServerResponse): void {
  switch (answer.kind) {
    case 'respond':
      if (res.destroyed) return;
      res.writeHead(answer.status, answer.statusText, answer.headers);
      res.end(answer.body);
      return;
    case 'network':
      // A reset is what a client sees of every injected connection failure once it is connected.
      if (!req.socket.destroyed) req.socket.resetAndDestroy();
      return;
    case 'hang':
      // Silence: the client's timeout, or the world closing, ends it.
      return;
    case 'stream':
      void writeStream(answer, req, res);
      return;
  }
}

/**
 * A streamed answer as server-sent events: status and headers at once, then each event as the
 * engine paces it (its `body`, shaped by a stream fault), each written through to the socket
 * before the next is asked for. A `stream_cut` closes the socket with the body unfinished, once the
 * events before it are on their way (a reset would let the kernel drop them unread): the client
 * sees the connection end mid-body. A stall writes nothing more until the client closes; a client
 * that closes early is told to the body, which records how far it read.
 */
async function writeStream(
  answer: Extract<HttpAnswer, { kind: 'stream' }>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  if (res.destroyed) return;
  const body = answer.body;
  res.writeHead(answer.status, answer.statusText, answer.headers);
  if (!body) {
    res.end(answer.events.join(''));
    return;
  }
  res.flushHeaders();
  let finished = false;
  const closed = new Promise<void>((resolve) =>
    res.once('close', () => {
      if (!finished) body.cancel(new DOMException('the client closed the connection', 'AbortError'));
      resolve();
    }),
  );
  try {
    for (let event = await body.next(); event !== undefined; event = await body.next()) {
      if (res.destroyed) return;
      await Promise.race([new Promise<void>((resolve) => res.write(event, () => resolve())), closed]);
    }
    finished = true;
    res.end();
  } catch {
    finished = true;
    // A cut (ECONNRESET), a stall the client gave up on, the world closing: the connection ends unfinished.
    if (!req.socket.destroyed) req.socket.destroy();
  }
}
