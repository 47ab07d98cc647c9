import { Command } from 'commander';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import { basename, extname } from 'node:path';
import type { CliContext } from '../context.js';
import { parseInteger } from '../options.js';
import { addRunFlags, matrixFlags, type RunFlags } from './runFlags.js';

const parseAgents = (value: string): number => parseInteger(value, 1, 'a number of agents, at least 1');

const EXAMPLES = `
Examples:
  $ faultline compare                                every built-in configuration over the library
  $ faultline compare --config rulebook --config naive --k 8
  $ faultline compare --config rulebook --config cockatiel-decorrelated --config p-retry-randomized
  $ faultline compare scenarios/ --config ./mine.yaml --config rulebook --gate config=mine:duplicates==0

  $ faultline compare --contention                   every contention configuration, 100 agents per scenario
  $ faultline compare --contention optimistic-100 --agents 1000 --config full-jitter --config exponential-no-jitter

--config takes a configuration of any kind: the reference runtime's, cockatiel's or p-retry's,
with optional retry layers (faultline list --configs shows the built-in ones; with no --config,
compare runs the four of scenarios/configs/).

The same run as "faultline run", printed configuration against configuration: a row per
scenario, a column group per configuration (pass^1, pass^k, duplicate effects, amplification,
p95 virtual time) and a totals row. The default gates apply to every configuration: pass
--gate with a config= scope to gate only the ones you ship. compare.html holds the same
figures as charts.

--contention runs many agents at once against one service with finite capacity (scenarios in
scenarios/contention/, configurations in scenarios/configs/contention/: any retry configuration
file, or kind: cockatiel / p-retry), one trial per configuration unless --k says otherwise, and
compares work, amplification, completion time, success, pass^k, duplicates, budget violations,
time throttled and the load over time. No gates apply.`;

/** Every built-in configuration, the rulebook default first so the others read against it. */
async function builtinConfigs(): Promise<string[]> {
  const { CONFIG_DIR, DEFAULT_CONFIG, filesIn } = await import('../../runner/library.js');
  const names = (await filesIn(CONFIG_DIR)).map((f) => basename(f, extname(f)));
  return [...names.filter((n) => n === DEFAULT_CONFIG), ...names.filter((n) => n !== DEFAULT_CONFIG)];
}

/** `faultline compare [scenarios…]`: configurations side by side. */
export function createCompareCommand(ctx: CliContext): Command {
  const cmd = new Command('compare')
    .description('run the scenarios under several retry configurations and compare them side by side')
    .argument('[scenarios...]', 'scenario files, folders or built-in names (default: the built-in library)');
  return addRunFlags(cmd, 'retry configuration to compare: built-in name or file (default: every built-in configuration)')
    .option('--contention', 'compare under contention: many agents sharing one service with finite capacity')
    .option('--html', 'also write compare.html when --reporter limits the reports (it comes with the default reports)')
    .option('--agents <n>', 'with --contention: agents per scenario (default: each scenario says)', parseAgents)
    .addHelpText('after', EXAMPLES)
    .action(async (scenarios: string[], flags: RunFlags & { contention?: boolean; agents?: number; html?: boolean }) => {
      if (flags.contention) {
        if (flags.gate) ctx.io.stderr.write('faultline: --gate does not apply to --contention (no gates are evaluated there); ignored\n');
        const { executeContention } = await import('../executeContention.js');
        ctx.exitCode = await executeContention(
          {
            scenarios,
            configs: flags.config ?? [],
            // One crowd per configuration is the default; --k asks for more.
            trials: cmd.getOptionValueSource('k') === 'cli' ? flags.k : 1,
            seed: flags.seed,
            outDir: flags.out,
            html: flags.html === true || flags.reporter === undefined,
            ...(flags.agents !== undefined && { agents: flags.agents }),
            ...(flags.reporter && { reporters: flags.reporter }),
            ...(flags.grep && { grep: flags.grep }),
          },
          ctx.io,
        );
        return;
      }
      if (flags.agents !== undefined) throw new FaultlineError(FaultlineErrorCode.Usage, '--agents needs --contention');
      const [{ executeRun }, { withConfigFile }] = await Promise.all([import('../executeRun.js'), import('../config/withConfigFile.js')]);
      ({ scenarios, flags } = await withConfigFile(cmd, scenarios, flags));
      ctx.exitCode = await executeRun(
        {
          scenarios,
          configs: flags.config ?? (await builtinConfigs()),
          k: flags.k,
          seed: flags.seed,
          outDir: flags.out,
          view: 'compare',
          html: flags.html === true || flags.reporter === undefined,
          ...(flags.gate && { gates: flags.gate }),
          ...(flags.reporter && { reporters: flags.reporter }),
          ...(flags.grep && { grep: flags.grep }),
          ...matrixFlags(flags),
          ...((flags.record === true || flags.live === true) && { modelMode: flags.record === true ? 'record' : 'live' }),
        },
        ctx.io,
      );
    });
}
