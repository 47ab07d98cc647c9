import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { RunRequest } from '../runRequest.js';
import { habitFlags, matrixFlags, watchRole, type RunFlags } from './runFlags.js';

/** What `run` and `compare` ask differently of the same flags: the configurations, the view, the reports. */
export type RunView = Pick<RunRequest, 'configs' | 'view' | 'html' | 'reporters'>;

/**
 * The action `run` and `compare` share: the project's config file, `--watch` (which reruns the
 * command itself), then the matrix; `view` says what differs between the two commands.
 */
export async function runAction(
  ctx: CliContext,
  cmd: Command,
  scenarios: string[],
  flags: RunFlags & { html?: boolean },
  view: (flags: RunFlags & { html?: boolean }) => Promise<RunView>,
): Promise<void> {
  const typed = [...scenarios];
  // The engine loads only once a command runs, so --help stays quick.
  const [{ executeRun }, { withConfigFile }] = await Promise.all([
    import('../executeRun.js'),
    import('../withConfigFile.js'),
  ]);
  ({ scenarios, flags } = await withConfigFile(cmd, scenarios, flags));
  const watching = watchRole(flags, ctx.io.env);
  if (watching.kind === 'watch') {
    const { executeWatch } = await import('../watch/executeWatch.js');
    ctx.exitCode = await executeWatch(
      { argv: ctx.argv ?? [], scenarios, ...(flags.project && { configFile: flags.project.file }) },
      ctx.io,
    );
    return;
  }
  const { configs, ...shown } = await view(flags);
  ctx.exitCode = await executeRun(
    {
      scenarios,
      configs,
      k: flags.k,
      seed: flags.seed,
      outDir: flags.out,
      ...shown,
      ...(flags.gate && { gates: flags.gate }),
      ...(flags.grep && { grep: flags.grep }),
      ...(flags.behaviour && { behaviour: flags.behaviour }),
      ...matrixFlags(flags),
      ...habitFlags(cmd, typed, flags),
      ...(watching.kind === 'rerun' && watching.files && { onlyFiles: watching.files }),
      ...(flags.origins && { origins: flags.origins }),
      ...(flags.project && { project: flags.project }),
      ...(flags.config !== undefined && { configsGiven: true }),
      ...((flags.record === true || flags.live === true) && { modelMode: flags.record === true ? 'record' : 'live' }),
    },
    ctx.io,
  );
}
