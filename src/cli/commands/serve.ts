import { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { ServeFlags } from '../executeServe.js';
import { parsePositive, parseSeed } from '../options.js';

const EXAMPLES =
  `
Examples:
  $ faultline serve ./order-agent.yaml
                       prints FAULTLINE_ORDERS_URL=http://127.0.0.1:…, FAULTLINE_MCP_URL=…/mcp, ` +
  `OPENAI_BASE_URL=… and FAULTLINE_END_URL
  $ curl -X POST "$FAULTLINE_ORDERS_URL/tools/create_order" -H 'idempotency-key: k1' -d '{…}'
  $ curl -X POST "$FAULTLINE_END_URL" -d '{"outcome":"completed"}'   ends the trial: its verdicts come back
  $ faultline serve ./order-agent.yaml --trials 3   three trials, at the same addresses, then exits

The scenario's services (and its model API) are served on 127.0.0.1 under its fault plan, on the
wall clock, and its tools as an MCP server over Streamable HTTP at FAULTLINE_MCP_URL, ` +
  `and every request is recorded as in a run. A trial ends on a POST to FAULTLINE_END_URL
(optionally with the FAULTLINE_RESULT line: outcome and claims) or on Ctrl-C; its timeline and
verdicts are printed. With faultline.config.ts, its defaults fill the scenario as for "faultline run"
(the agent is yours: its agents matrix plays no part). Exit code: 0 when every trial passed, 1 when one failed; 130 after Ctrl-C
(the verdicts of the trial it ended are printed first).`;

/** `faultline serve <scenario>`: the scenario's world over real HTTP, kept up for interactive work. */
export function createServeCommand(ctx: CliContext): Command {
  return new Command('serve')
    .description("serve a scenario's services and model API on 127.0.0.1 under its fault plan, and judge what arrives")
    .argument('<scenario>', 'scenario file or built-in name')
    .option('--seed <n>', "the run seed (the plan's draws, as `run --seed`)", parseSeed, 1)
    .option('--trials <n>', 'end after this many trials (default: until Ctrl-C)', parsePositive)
    .option(
      '--config-file <file>',
      'the project config file whose defaults the scenario takes (default: ./faultline.config.ts if there is one)',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (ref: string, flags: ServeFlags) => {
      // The served world loads only once the command runs, so --help stays quick.
      const { executeServe } = await import('../executeServe.js');
      ctx.exitCode = await executeServe(ref, flags, ctx.io);
    });
}
