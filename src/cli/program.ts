import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { CliContext } from './context.js';
import { createCompareCommand } from './commands/compare.js';
import { createExploreCommand } from './commands/explore.js';
import { createInitCommand } from './commands/init.js';
import { createListCommand } from './commands/list.js';
import { createMcpProxyCommand } from './commands/mcpProxy.js';
import { createMergeCommand } from './commands/merge.js';
import { createReplayCommand } from './commands/replay.js';
import { createRunCommand } from './commands/run.js';
import { createSchemaCommand } from './commands/schema.js';
import { createViewCommand } from './commands/view.js';
import { createSweepCommand } from './commands/sweep.js';
import { createServeCommand } from './commands/serve.js';
import { createMcpServeCommand } from './commands/mcpServe.js';
import { createFromTraceCommand } from './commands/fromTrace.js';

const EXAMPLES = `
Examples:
  $ faultline run                          the built-in library under the rulebook configuration
  $ faultline compare --config rulebook --config naive
  $ faultline replay order-partial-write-no-idempotency --config naive --seed 1 --trial 0
  $ faultline merge shard-1/faultline.json shard-2/faultline.json
  $ faultline view reports/faultline.json   report.html: the run to look at in a browser
  $ faultline list
  $ faultline schema --out faultline.schema.json
  $ faultline init                         a config, an example service, agent and scenario, a CI workflow
  $ faultline from-trace otel-traces.json --out incident.yaml   a production trace as a scenario

Exit codes: 0 every gate held, 1 a gate failed, 2 bad input or usage, 3 faultline crashed,
130/143/129 stopped by SIGINT/SIGTERM/SIGHUP (the partial reports are written).`;

const version = (): string => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
};

/** Commander writes usage errors itself; we only take over where they go and the exit code (see `errorExit`). */
function configure(cmd: Command, ctx: CliContext): Command {
  return cmd
    .exitOverride()
    .showHelpAfterError('(run with --help for usage and examples)')
    .configureOutput({ writeOut: (s) => void ctx.io.stdout.write(s), writeErr: (s) => void ctx.io.stderr.write(s) });
}

/** The `faultline` command and its subcommands. */
export function buildProgram(ctx: CliContext): Command {
  const program = configure(new Command('faultline'), ctx)
    .description("fault-injection and reliability tests for LLM agents' tool calls")
    .version(version(), '-v, --version')
    .addHelpText('after', EXAMPLES);
  for (const create of [
    createRunCommand,
    createCompareCommand,
    createReplayCommand,
    createMergeCommand,
    createListCommand,
    createSchemaCommand,
    createInitCommand,
    createViewCommand,
    createMcpProxyCommand,
    createMcpServeCommand,
    createServeCommand,
    createExploreCommand,
    createSweepCommand,
    createFromTraceCommand,
  ]) {
    program.addCommand(configure(create(ctx), ctx));
  }
  return program;
}
