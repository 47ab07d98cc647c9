import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { INIT_EXAMPLES } from '../init/examples.js';

const EXAMPLES = `
Writes faultline.config.ts, an example service (faultline/services/, declared with
defineService), an agent and a scenario that puts them under a partial write, a GitHub
Actions workflow and an "npm run faultline" script. A file that exists is left alone and
listed as skipped, so running init twice is safe.

--example NAME writes a worked example to faultline/examples/ instead of the starter
files, with a config that runs it:
${INIT_EXAMPLES.map((e) => `  ${e.name.padEnd(15)} ${e.summary}`).join('\n')}

Examples:
  $ npx faultline init && npx faultline run
  $ npx faultline init --example helpdesk && npx faultline run`;

/** `faultline init`: set a project up with a working example. */
export function createInitCommand(ctx: CliContext): Command {
  return new Command('init')
    .description(
      'set up faultline in this project: a config file, an example service, agent and scenario, a CI workflow, an npm script',
    )
    .option('--dir <folder>', 'the project folder', '.')
    .option(
      '--example <name>',
      `write a worked example instead of the starter files (${INIT_EXAMPLES.map((e) => e.name).join(', ')})`,
    )
    .addHelpText('after', EXAMPLES)
    .action(async (flags: { dir: string; example?: string }) => {
      const { executeInit } = await import('../init/executeInit.js');
      ctx.exitCode = await executeInit(flags.dir, ctx.io, flags.example);
    });
}
