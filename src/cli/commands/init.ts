import { Command } from 'commander';
import type { CliContext } from '../context.js';

const EXAMPLES = `
Writes faultline.config.ts, an example service (faultline/services/, declared with
defineService), an agent and a scenario that puts them under a partial write, a GitHub
Actions workflow and an "npm run faultline" script. A file that exists is left alone and
listed as skipped, so running init twice is safe.

Examples:
  $ npx faultline init && npx faultline run`;

/** `faultline init`: set a project up with a working example. */
export function createInitCommand(ctx: CliContext): Command {
  return new Command('init')
    .description('set up faultline in this project: a config file, an example service, agent and scenario, a CI workflow, an npm script')
    .option('--dir <folder>', 'the project folder', '.')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: { dir: string }) => {
      const { executeInit } = await import('../init/executeInit.js');
      ctx.exitCode = await executeInit(flags.dir, ctx.io);
    });
}
