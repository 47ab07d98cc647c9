import { Command } from 'commander';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { parsePositive, parseSeed, type SeedOption } from '../options.js';

interface McpServeFlags {
  readonly seed: SeedOption;
  readonly trials?: number;
  readonly report?: string;
  readonly out?: string;
  readonly configFile?: string;
}

const EXAMPLES = `
Examples:
  $ faultline mcp-serve ./orders.yaml
                       an MCP server on stdio: your MCP client starts this command
  $ faultline mcp-serve ./orders.yaml --trials 3 --report reports/mcp-serve.json
  $ faultline mcp-serve ./orders.yaml --out reports   also faultline.json, junit.xml and summary.md, as run writes them

The scenario's tools (every tool of its services) are MCP tools, annotated from their risk
(read: readOnlyHint; write: idempotentHint false, destructiveHint true; idempotent-write:
idempotentHint true), with a {tool}_status tool for each tool that answers status queries.
Each tools/call goes through the scenario's world under its fault plan, on the wall clock:
a partial write commits and the client gets no answer (or a tool error), a rate limit comes
back as a tool error with retryAfterMs and its Retry-After header. An idempotency key goes in
the call's _meta.idempotencyKey. A trial ends on the request faultline/end_trial (params: the
FAULTLINE_RESULT line, optional), when the client closes stdin, or on Ctrl-C; its verdicts go to
stderr (stdout is the MCP connection). Exit code: 0 when every trial passed, 1 when one failed.`;

/** `faultline mcp-serve <scenario>`: the scenario's world as an MCP server on stdio, judged like any trial. */
export function createMcpServeCommand(ctx: CliContext): Command {
  return new Command('mcp-serve')
    .description(
      "serve a scenario's tools as an MCP server on stdio under its fault plan, and judge what the client did",
    )
    .argument('<scenario>', 'scenario file or built-in name')
    .option('--seed <n>', "the run seed (the plan's draws, as `run --seed`)", parseSeed, 1)
    .option(
      '--config-file <file>',
      'the project config file whose defaults the scenario takes (default: ./faultline.config.ts if there is one)',
    )
    .option(
      '--trials <n>',
      'end after this many trials (default: until the client closes stdin, or Ctrl-C)',
      parsePositive,
    )
    .option('--report <file>', 'also write the judged trials (verdicts and histories) to this JSON file')
    .option(
      '--out <dir>',
      'also write the report files `run` writes (JSON, JUnit, Markdown) for the judged trials to this folder',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (ref: string, flags: McpServeFlags) => {
      if (flags.seed === 'random')
        throw new FaultlineError(FaultlineErrorCode.Usage, 'mcp-serve needs a seed (--seed <n>), not "random"');
      // The session's modules (the MCP SDK, the served world) load only once the command runs, so --help stays quick.
      const { executeMcpServe } = await import('../executeMcpServe.js');
      ctx.exitCode = await executeMcpServe(
        {
          scenario: ref,
          seed: flags.seed,
          ...(flags.configFile !== undefined && { configFile: flags.configFile }),
          ...(flags.trials !== undefined && { trials: flags.trials }),
          ...(flags.report !== undefined && { report: flags.report }),
          ...(flags.out !== undefined && { out: flags.out }),
        },
        ctx.io,
      );
    });
}
