import { Command } from 'commander';
import type { Gate } from '../../stats/gates.js';
import type { ReporterName } from '../../report/write.js';
import type { CliContext } from '../context.js';
import { collectGate, collectReporter } from '../options.js';

interface MergeFlags {
  readonly out: string;
  readonly gate?: Gate[];
  readonly reporter?: ReporterName[];
}

const EXAMPLES = `
Examples:
  $ faultline run --shard 1/2 --out shard-1        # on one machine (or CI job)
  $ faultline run --shard 2/2 --out shard-2        # on another
  $ faultline merge shard-1/faultline.json shard-2/faultline.json --out reports

Every shard of one run (same seed, k, scenarios, configurations and --keep-failures), each
once. The merged faultline.json, junit.xml and summary.md are the ones the unsharded run
writes, apart from wallClock (the earliest start to the latest finish). The gates are the
shards' own unless --gate says otherwise, evaluated on the merged figures. Exit codes as for
"faultline run".`;

/** `faultline merge <reports…>`: shard reports back into the report of the whole run. */
export function createMergeCommand(ctx: CliContext): Command {
  return new Command('merge')
    .description('merge the JSON reports of the shards of one run (--shard i/n) into the reports of the whole run')
    .argument('<reports...>', 'faultline.json files, one per shard')
    .option('--out <dir>', 'folder the merged report files go to', 'reports')
    .option('--gate <expr>', "a gate the merged run must hold (repeatable; default: the shards' gates)", collectGate)
    .option(
      '--reporter <name>',
      'console, json, junit, markdown or html (repeatable; default: all but html)',
      collectReporter,
    )
    .addHelpText('after', EXAMPLES)
    .action(async (reports: string[], flags: MergeFlags) => {
      const { executeMerge } = await import('../executeMerge.js');
      ctx.exitCode = await executeMerge(
        {
          reports,
          outDir: flags.out,
          ...(flags.gate && { gates: flags.gate }),
          ...(flags.reporter && { reporters: flags.reporter }),
        },
        ctx.io,
      );
    });
}
