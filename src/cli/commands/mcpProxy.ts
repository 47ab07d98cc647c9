import { Command, InvalidArgumentError } from 'commander';
import type { CliContext } from '../context.js';

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
      const { executeMcpProxy } = await import('../executeMcpProxy.js');
      ctx.exitCode = await executeMcpProxy({ server, ...flags }, ctx.io);
    });
}
