import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Command, InvalidArgumentError } from 'commander';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { ExitCode } from '../exitCodes.js';

interface McpProxyFlags {
  readonly plan?: string;
  readonly seed: number;
  readonly report: string;
}

const EXAMPLES =
  `
Examples:
  $ faultline mcp-proxy --plan plan.yaml -- node server.js
                                    your MCP client starts this instead of the server; stdio in, stdio out
  $ faultline mcp-proxy --plan plan.yaml --report reports/notes.json -- npx my-mcp-server

The plan is a fault plan (a list of rules, or { faults: [...], risks: { tool: read | idempotent-write
| write } }) matched against tools/call by tool name and call number; risks name what the
server's annotations do not say, or what a client that caches its tool list never asks. ` +
  `Refusals come back as tool errors (isError: true), never as JSON-RPC
errors; partial_write lets the server commit and loses the answer; timeout drops the call.
The report (JSON) is written when the client or the server closes; a summary goes to stderr, with
the verdicts: duplicates (a tool not idempotent, by its annotations or the plan's risks, reaching
the server twice with the same arguments), unknown-outcomes (a lost answer resent before a read
reconciled it) and retry-after (a call arriving before a refusal's Retry-After elapsed). Exit
code 1 when one fails.`;

const integer = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
  return n;
};

/** `faultline mcp-proxy`: a fault-injecting proxy in front of any MCP server run as a command. */
export function createMcpProxyCommand(ctx: CliContext): Command {
  return new Command('mcp-proxy')
    .description('sit between an MCP client and an MCP server (stdio), injecting a fault plan into tools/call')
    .argument('<server...>', 'the MCP server command and its arguments, after --')
    .requiredOption('--plan <file>', 'the fault plan (YAML or JSON)')
    .option('--seed <n>', "seed for the plan's probability draws", integer, 1)
    .option('--report <file>', 'where the JSON report goes', 'reports/mcp-proxy.json')
    .addHelpText('after', EXAMPLES)
    .action(async (server: string[], flags: McpProxyFlags) => {
      // Loaded here, not with the command: every command's definition loads with the CLI, and the plan's schemas need zod.
      const { loadPlanFile } = await import('../loadPlanFile.js');
      const { plan, risks } = await loadPlanFile(flags.plan ?? '');
      // Before the server starts: finding out when the session ends would lose its record.
      const { assertWritableFile } = await import('../outputPaths.js');
      await assertWritableFile(flags.report, '--report');
      const [
        { McpFaultProxy },
        { StdioServerTransport },
        { StdioClientTransport },
        { mcpProxyLines },
        { judgeProxiedCalls },
      ] = await Promise.all([
        import('../../faults/mcp/McpFaultProxy.js'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('@modelcontextprotocol/sdk/client/stdio.js'),
        import('../../report/mcpProxy.js'),
        import('../../checks/judgeProxiedCalls.js'),
      ]);
      const [command, ...args] = server as [string, ...string[]];
      const env = Object.fromEntries(
        Object.entries(ctx.io.env).filter((e): e is [string, string] => e[1] !== undefined),
      );
      const serverTransport = new StdioClientTransport({ command, args, env, stderr: 'inherit' });
      const proxy = new McpFaultProxy({
        client: new StdioServerTransport(process.stdin, process.stdout),
        server: serverTransport,
        plan,
        seed: flags.seed,
        ...(risks && { risks }),
      });
      let serverFailed: string | undefined;
      let clientClosed = false;
      // A line on the server's stdout that is not JSON-RPC: not an MCP server on stdio (or one that logs to stdout);
      // the client would wait forever.
      serverTransport.onerror = (error) => {
        serverFailed ??= `wrote what is not a JSON-RPC message (${error.message.slice(0, 200)})`;
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
          `mcp-proxy: cannot start the MCP server "${server.join(' ')}": ${code} (${why})`,
        );
      }
      // The server process's own exit: one that fails on its own (not stopped by the proxy) is a failed session, not "0 tools/call";
      // so is one that exits, even with 0, while the client is still there.
      (serverTransport as unknown as { _process?: ChildProcess })._process?.once('exit', (exitCode, signal) => {
        if (exitCode !== null && exitCode !== 0) serverFailed ??= `exited with code ${exitCode}`;
        else if (signal !== null && signal !== 'SIGTERM') serverFailed ??= `was killed by ${signal}`;
        else if (!clientClosed) serverFailed ??= `exited with code ${String(exitCode ?? 0)}`;
      });
      // The SDK's stdio server transport does not notice the client closing its end.
      process.stdin.once('end', () => {
        clientClosed = true;
        void proxy.close();
      });
      const record = await proxy.closed;
      const checks = judgeProxiedCalls(record.history);
      const report = {
        kind: 'faultline-mcp-proxy' as const,
        server,
        seed: flags.seed,
        plan,
        ...(risks && { risks }),
        ...record,
        checks,
      };
      const out = resolve(flags.report);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
      ctx.io.stderr.write(`${mcpProxyLines(report).join('\n')}\nreport: ${out}\n`);
      if (serverFailed !== undefined) {
        throw new FaultlineError(
          FaultlineErrorCode.Usage,
          `mcp-proxy: the MCP server "${server.join(' ')}" ${serverFailed} before the client closed (is it an MCP server on stdio?)`,
        );
      }
      if (checks.some((c) => c.verdict.valid === false)) ctx.exitCode = ExitCode.GateFailed;
    });
}
