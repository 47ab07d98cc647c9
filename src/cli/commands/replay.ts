import { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { ReplayFlags } from '../executeReplay.js';
import { collect, parseSeed, parseTrialIndex } from '../options.js';
import { isolationOptions } from './isolationFlags.js';

const EXAMPLES = `
Examples:
  $ faultline replay order-partial-write-no-idempotency --config naive --seed 1 --trial 2
  $ faultline replay ./my-scenario.yaml --config ./retry.yaml --seed 7 --trial 0 --json > history.json

Every failing trial in a report carries this command line. The same scenario, configuration,
seed and trial index give the same history, event for event. The trial runs on a worker
thread as in "faultline run": an agent that exits, crashes its thread or spins gets the same
verdict (crashed, hung) as in the run. Exit code: 0 when the trial passes, 1 when it fails, so
the command doubles as a reproducer in a bug report; 2 for bad input (a missing or broken
--cassette, before any trial); 4 when --cassette is the recording of a trial that was not judged
(infra-error: the model provider failed); 130/143 when stopped by SIGINT/SIGTERM.`;

/** `faultline replay <scenario>`: one trial again, its timeline and its verdicts. */
export function createReplayCommand(ctx: CliContext): Command {
  return new Command('replay')
    .description('rerun exactly one trial and print its timeline and verdicts')
    .argument('<scenario>', 'scenario file or built-in name')
    .option('--config <name|file>', 'retry configuration: built-in name or file', 'rulebook')
    .option(
      '--behaviour <name|mix>',
      "the scripted stand-in's behaviour the trial ran with (--behaviour of the run; the replay line names it)",
      collect,
    )
    .option('--seed <n>', 'the run seed of the trial', parseSeed, 1)
    .option('--trial <i>', 'the trial index (0-based)', parseTrialIndex, 0)
    .option('--json', 'print the trial history as JSON instead')
    .option(
      '--cassette <file>',
      "answer the model from this cassette: a live trial's recording (the report names it) replays that trial offline",
    )
    .option('--agent <name>', "the agent of faultline.config.ts's agents the trial ran")
    .option(
      '--config-file <file>',
      'the project config file whose defaults and agents the scenario takes (default: ./faultline.config.ts if there is one)',
    )
    .addOption(isolationOptions()[0]!)
    .addOption(isolationOptions()[1]!)
    .addHelpText('after', EXAMPLES)
    .action(async (ref: string, flags: ReplayFlags) => {
      // The engine loads only once a command runs, so --help stays quick.
      const { executeReplay } = await import('../executeReplay.js');
      ctx.exitCode = await executeReplay(ref, flags, ctx.io);
    });
}
