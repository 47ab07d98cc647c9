import { Command } from 'commander';
import { basename, extname } from 'node:path';
import type { CliContext } from '../context.js';
import { addRunFlags, type RunFlags } from './runFlags.js';
import { runAction } from './runAction.js';

const EXAMPLES = `
Examples:
  $ faultline compare                                every built-in configuration over the library
  $ faultline compare --config rulebook --config naive --k 8
  $ faultline compare --config rulebook --config cockatiel-decorrelated --config p-retry-randomized
  $ faultline compare scenarios/ --config ./mine.yaml --config rulebook --gate config=mine:duplicates==0

  $ faultline compare optimistic-100 --k 1 --config full-jitter --config exponential-no-jitter --config no-backoff

--config takes a configuration of any kind: the reference runtime's, cockatiel's or p-retry's,
with optional retry layers (faultline list --configs shows the built-in ones; with no --config,
compare runs the four of scenarios/configs/).

The same run as "faultline run", printed configuration against configuration: a row per
scenario, a column group per configuration (pass^1, pass^k, duplicate effects, amplification,
p95 time: virtual, or wall for a command agent) and a totals row. The default gates apply to every configuration: pass
--gate with a config= scope to gate only the ones you ship. compare.html holds the same
figures as charts.

Scenarios with many agents (agents: N, such as the built-in ones in scenarios/crowds/, with
configurations in scenarios/configs/crowds/) add their crowd figures: agents that succeeded,
completion time per agent, time throttled by 429/503, and the load over time: goodput (calls
that succeeded) and offered load (requests that reached the services, retries included) per
virtual second for each configuration, as sparklines here and as SVG charts in compare.html.`;

/** Every built-in configuration, the rulebook default first so the others read against it. */
export async function builtinConfigs(): Promise<string[]> {
  const { CONFIG_DIR, DEFAULT_CONFIG, filesIn } = await import('../../scenario/library.js');
  const names = (await filesIn(CONFIG_DIR)).map((f) => basename(f, extname(f)));
  return [...names.filter((n) => n === DEFAULT_CONFIG), ...names.filter((n) => n !== DEFAULT_CONFIG)];
}

/** `faultline compare [scenarios…]`: configurations side by side. */
export function createCompareCommand(ctx: CliContext): Command {
  const cmd = new Command('compare')
    .description('run the scenarios under several retry configurations and compare them side by side')
    .argument('[scenarios...]', 'scenario files, folders or built-in names (default: the built-in library)');
  return addRunFlags(
    cmd,
    'retry configuration to compare: built-in name or file (default: every built-in configuration)',
  )
    .option('--html', 'also write compare.html when --reporter limits the reports (it comes with the default reports)')
    .addHelpText('after', EXAMPLES)
    .action((scenarios: string[], flags: RunFlags & { html?: boolean }) =>
      runAction(ctx, cmd, scenarios, flags, async (f) => ({
        configs: f.config ?? (await builtinConfigs()),
        view: 'compare',
        html: f.html === true || f.reporter === undefined,
        ...(f.reporter && { reporters: f.reporter }),
      })),
    );
}
