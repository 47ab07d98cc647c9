import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpWorld } from './mcpWorldServer.js';
import { MCP_ORIGIN } from './mcpWorldTools.js';

/** The path of the MCP endpoint on its served origin. */
export const MCP_PATH = '/mcp';

/**
 * The world's MCP server over Streamable HTTP, one session per client. Sessions outlive a
 * trial (`faultline serve` keeps its addresses from trial to trial): each call goes to the trial
 * open when it arrives. A session's `notifications/cancelled` reaches the call it names, which
 * is how a client's timeout becomes the engine's "client gave up".
 */
export class McpHttpEndpoint {
  /** The trial calls go to now; `undefined` between trials (a call then gets a tool error saying so). */
  world: McpWorld | undefined;
  readonly #sessions = new Map<string, StreamableHTTPServerTransport>();
  #server: http.Server | undefined;
  #url: string | undefined;

  /** Listens on 127.0.0.1 (a free port by default) once, and says where: `http://127.0.0.1:41234/mcp`. */
  async listen(port = 0): Promise<string> {
    if (this.#url !== undefined) return this.#url;
    const server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) refuse(res, 500, `faultline: ${String(error)}`, -32603);
      });
    });
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.#url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${MCP_PATH}`;
    return this.#url;
  }

  /** Answers one HTTP request to the endpoint's origin. */
  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== MCP_PATH) {
      // Recorded in the open trial as any request no route serves is (its timeline and reports show it).
      this.world?.faults.refuseUnserved(req.method ?? 'GET', `${MCP_ORIGIN}${req.url ?? '/'}`);
      return refuse(res, 404, `faultline: the MCP endpoint is ${MCP_PATH}, not ${path}`);
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.#sessions.get(id);
      if (!session)
        return refuse(
          res,
          404,
          `faultline: no MCP session ${id} (it ended, or this is a new faultline process): initialize again`,
          -32001,
        );
      return session.handleRequest(req, res);
    }
    if (req.method !== 'POST') return refuse(res, 400, 'faultline: a new MCP session starts with a POST of initialize');
    // The MCP SDK loads with the first session, not with the endpoint: every served world has
    // one (each command agent's trial, `faultline serve`), and most agents never speak MCP.
    const [{ StreamableHTTPServerTransport }, { createMcpWorldServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('./mcpWorldServer.js'),
    ]);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void this.#sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    await createMcpWorldServer({ world: () => this.world }).connect(transport);
    await transport.handleRequest(req, res);
  }

  /** Ends every session and stops listening. */
  async close(): Promise<void> {
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(open.map((t) => t.close()));
    const server = this.#server;
    this.#server = undefined;
    this.#url = undefined;
    if (server?.listening) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open SSE streams would hold `close` open for ever.
        server.closeAllConnections();
      });
    }
  }
}

function refuse(res: http.ServerResponse, status: number, message: string, code = -32000): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
