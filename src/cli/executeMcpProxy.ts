import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import type { McpFaultProxy } from '../faults/mcp/McpFaultProxy.js';
import { ExitCode } from './exitCodes.js';
import type { Io } from './io.js';
import { loadPlanFile } from './loadPlanFile.js';
import { assertWritableFile } from './outputPaths.js';

/** What `faultline mcp-proxy` runs: the server's command line, the plan file, the seed, the report file. */
export interface McpProxyRequest {
  readonly server: readonly string[];
  readonly plan?: string;
  readonly seed: number;
  readonly report: string;
}

/** The proxy's session, and how the server side of it went (set as it happens). */
interface Session {
  readonly proxy: McpFaultProxy;
  /** Why the server failed, if it did: it is then a failed session, not "0 tools/call". */
  serverFailed: string | undefined;
  clientClosed: boolean;
}

/**
 * Puts a fault-injecting proxy between the MCP client on stdio and the server it starts; once either side
 * closes, writes the report, prints its summary and says whether every verdict held.
 */
export async function executeMcpProxy(request: McpProxyRequest, io: Io): Promise<ExitCode> {
  const { server } = request;
  const planFile = await loadPlanFile(request.plan ?? '');
  const { plan, risks } = planFile;
  // Before the server starts: finding out when the session ends would lose its record.
  await assertWritableFile(request.report, '--report');
  const [{ mcpProxyLines }, { judgeProxiedCalls }] = await Promise.all([
    import('../report/mcpProxy.js'),
    import('../checks/judgeProxiedCalls.js'),
  ]);
  const session = await startSession(request, planFile, io);
  const record = await session.proxy.closed;
  const checks = judgeProxiedCalls(record.history);
  const report = {
    kind: 'faultline-mcp-proxy' as const,
    server,
    seed: request.seed,
    plan,
    ...(risks && { risks }),
    ...record,
    checks,
  };
  const out = resolve(request.report);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  io.stderr.write(`${mcpProxyLines(report).join('\n')}\nreport: ${out}\n`);
  if (session.serverFailed !== undefined) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `mcp-proxy: the MCP server "${server.join(' ')}" ${session.serverFailed} before the client closed (is it an MCP server on stdio?)`,
    );
  }
  return checks.some((c) => c.verdict.valid === false) ? ExitCode.GateFailed : ExitCode.Ok;
}

/** Starts the server and the proxy in front of it, watching how the server and the client end. */
async function startSession(
  request: McpProxyRequest,
  { plan, risks }: Awaited<ReturnType<typeof loadPlanFile>>,
  io: Io,
): Promise<Session> {
  const [{ McpFaultProxy }, { StdioServerTransport }, { StdioClientTransport }] = await Promise.all([
    import('../faults/mcp/McpFaultProxy.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
  ]);
  const [command, ...args] = request.server as [string, ...string[]];
  const env = Object.fromEntries(Object.entries(io.env).filter((e): e is [string, string] => e[1] !== undefined));
  const serverTransport = new StdioClientTransport({ command, args, env, stderr: 'inherit' });
  const proxy = new McpFaultProxy({
    client: new StdioServerTransport(process.stdin, process.stdout),
    server: serverTransport,
    plan,
    seed: request.seed,
    ...(risks && { risks }),
  });
  const session: Session = { proxy, serverFailed: undefined, clientClosed: false };
  // A line on the server's stdout that is not JSON-RPC: not an MCP server on stdio (or one that logs to stdout);
  // the client would wait forever.
  serverTransport.onerror = (error) => {
    session.serverFailed ??= `wrote what is not a JSON-RPC message (${error.message.slice(0, 200)})`;
    void proxy.close();
  };
  try {
    await proxy.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    const why =
      code === 'ENOENT' ? 'no such command' : code === 'EACCES' ? 'not executable' : 'the command could not be run';
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `mcp-proxy: cannot start the MCP server "${request.server.join(' ')}": ${code} (${why})`,
    );
  }
  // The server process's own exit: one that fails on its own (not stopped by the proxy) is a failed session, not "0 tools/call";
  // so is one that exits, even with 0, while the client is still there.
  (serverTransport as unknown as { _process?: ChildProcess })._process?.once('exit', (exitCode, signal) => {
    if (exitCode !== null && exitCode !== 0) session.serverFailed ??= `exited with code ${exitCode}`;
    else if (signal !== null && signal !== 'SIGTERM') session.serverFailed ??= `was killed by ${signal}`;
    else if (!session.clientClosed) session.serverFailed ??= `exited with code ${String(exitCode ?? 0)}`;
  });
  // The SDK's stdio server transport does not notice the client closing its end.
  process.stdin.once('end', () => {
    session.clientClosed = true;
    void proxy.close();
  });
  return session;
}
