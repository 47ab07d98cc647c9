import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { DEFAULT_REPORTERS } from '../options.js';
import { addRunFlags, type RunFlags } from './runFlags.js';
import { runAction } from './runAction.js';

const EXAMPLES = `
Examples:
  $ faultline run                                   every built-in scenario under the rulebook configuration
  $ faultline run order-partial-write-idempotent --k 20 --seed random
  $ faultline run my-scenarios/ --config naive --config ./retry.yaml
  $ faultline run --grep rate-limit --gate 'pass^4>=0.95' --reporter console --reporter junit
  $ OPENAI_API_KEY=... faultline run my-agent.yaml --record   writes my-agent.cassette.json; later runs replay it offline
  $ faultline run scenarios/ --bail 1                 stop at the first failing trial (partial reports, exit 1)
  $ faultline run --last-failed                       only the scenarios that failed in reports/faultline.json
  $ faultline run scenarios/ --watch --reporter list  rerun what an edit reaches; Ctrl-C to stop
  $ faultline run -t rate-limit --reporter dot --quiet
  $ OPENAI_API_KEY=... faultline run my-agent.yaml --live --k 16 --max-connections 8 --max-cost 5
  $ faultline run --otlp-endpoint http://localhost:4318   the kept trials as traces (docs/opentelemetry.md)

Scenarios are files (.yaml, .yml, .json, .ts, .js), folders of them, or built-in names
(see "faultline list"). Exit codes: 0 every gate held, 1 a gate failed, 2 bad input,
3 faultline crashed, 5 the --otlp-endpoint collector failed (the reports are written),
130/143/129 stopped by SIGINT/SIGTERM/SIGHUP (the partial reports are written).`;

/** `faultline run [scenarios…]`: the matrix, its reports and its gates. */
export function createRunCommand(ctx: CliContext): Command {
  const cmd = new Command('run')
    .description('run scenarios k times under each configuration, write the reports and check the gates')
    .argument('[scenarios...]', 'scenario files, folders or built-in names (default: the built-in library)');
  return addRunFlags(cmd, 'retry configuration: built-in name or file (default: rulebook)')
    .option('--html', 'also write report.html: the run to look at in a browser (see "faultline view")')
    .addHelpText('after', EXAMPLES)
    .action((scenarios: string[], flags: RunFlags & { html?: boolean }) =>
      runAction(ctx, cmd, scenarios, flags, async (f) => ({
        configs: f.config ?? [],
        view: 'summary',
        ...(f.html
          ? { reporters: [...(f.reporter ?? DEFAULT_REPORTERS), 'html'] }
          : f.reporter && { reporters: f.reporter }),
      })),
    );
}
