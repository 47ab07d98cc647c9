import { Command } from 'commander';
import { basename, extname } from 'node:path';
import type { CliContext } from '../context.js';
import { addRunFlags, type RunFlags } from './runFlags.js';

const EXAMPLES = `
Examples:
  $ faultline compare                                every built-in configuration over the library
  $ faultline compare --config rulebook --config naive --k 8
  $ faultline compare scenarios/ --config ./mine.yaml --config rulebook --gate config=mine:duplicates==0

The same run as "faultline run", printed configuration against configuration: a row per
scenario, a column group per configuration (pass^1, pass^k, duplicate effects, amplification,
p95 virtual time) and a totals row. The default gates apply to every configuration: pass
--gate with a config= scope to gate only the ones you ship.`;

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
    .addHelpText('after', EXAMPLES)
    .action(async (scenarios: string[], flags: RunFlags) => {
      const { executeRun } = await import('../executeRun.js');
      ctx.exitCode = await executeRun(
        {
          scenarios,
          configs: flags.config ?? (await builtinConfigs()),
          k: flags.k,
          seed: flags.seed,
          outDir: flags.out,
          view: 'compare',
          ...(flags.gate && { gates: flags.gate }),
          ...(flags.reporter && { reporters: flags.reporter }),
          ...(flags.grep && { grep: flags.grep }),
        },
        ctx.io,
      );
    });
}
