import type { Command } from 'commander';
import { collectNames } from '../options.js';
import { isolationOptions } from './isolationFlags.js';

/**
 * The flags of a command that runs a project's scenarios as `run` does (explore, sweep): the trials' isolation,
 * `--agent` and `--config-file`; `reads` lists what the command takes from the config file.
 */
export function addProjectFlags(cmd: Command, reads: string): Command {
  return addAgentFlag(
    cmd.addOption(isolationOptions()[0]!).addOption(isolationOptions()[1]!),
    '; default: each of them',
  ).option(
    '--config-file <file>',
    'the project config file to read (default: ./faultline.config.ts if there is one; flags win over ' +
      `it): ${reads}`,
  );
}

/** `--agent`: which agents of the config file's matrix run (`more`: what the help adds, such as the default). */
export const addAgentFlag = (cmd: Command, more: string): Command =>
  cmd.option(
    '--agent <name>',
    `only these agents of faultline.config.ts's agents (repeatable, or a comma list${more})`,
    collectNames,
  );
