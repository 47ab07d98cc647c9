import { Command } from 'commander';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import { ExitCode } from '../exitCodes.js';
import type { CliContext } from '../context.js';
import { parseSeed, parseTrialIndex, type SeedOption } from '../options.js';
import { realTimeNote } from '../realTimeNote.js';
import { isolationOf, isolationOptions, type IsolationFlags } from './isolationFlags.js';

interface ReplayFlags extends IsolationFlags {
  readonly config: string;
  readonly seed: SeedOption;
  readonly trial: number;
  readonly json?: boolean;
  readonly cassette?: string;
  readonly agent?: string;
  readonly configFile?: string;
}

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
      if (flags.seed === 'random')
        throw new FaultlineError(
          FaultlineErrorCode.Usage,
          'replay needs the seed of the run it reproduces (--seed <n>), not "random"',
        );
      const [{ loadConfigs, loadScenarios, refOf }, { replayIsolated }, { printTrial }, { assertPeersInstalled }] =
        await Promise.all([
          import('../../scenario/library.js'),
          import('../replayIsolated.js'),
          import('../printTrial.js'),
          import('../../agent/kinds/optionalPeers.js'),
        ]);
      const { readProjectConfig } = await import('../../config/readProjectConfig.js');
      const project = (await readProjectConfig(flags.configFile, flags.agent === undefined ? undefined : [flags.agent]))
        ?.project;
      const scenarios = await loadScenarios([ref], project);
      const scenario = scenarios[0];
      if (scenario === undefined || scenarios.length > 1) {
        const hint =
          project?.agents !== undefined && flags.agent === undefined
            ? `; it runs under ${scenarios.length} agents: name one with --agent`
            : '';
        throw new FaultlineError(
          FaultlineErrorCode.Usage,
          `replay takes one scenario; "${ref}" holds ${scenarios.length} (${scenarios.map((s) => s.name).join(', ')})${hint}`,
        );
      }
      const configs = await loadConfigs([flags.config]);
      const config = configs[0];
      if (config === undefined || configs.length > 1) {
        throw new FaultlineError(
          FaultlineErrorCode.Usage,
          `replay takes one configuration; "${flags.config}" holds ${configs.length}`,
        );
      }
      await assertPeersInstalled([scenario], [config]);
      if (flags.cassette !== undefined && !scenario.model)
        throw new FaultlineError(
          FaultlineErrorCode.Usage,
          `--cassette answers a scenario's model; "${scenario.name}" names no model`,
        );
      // A cassette that is not there or is no cassette is bad input, refused before the trial (not a `crashed` agent).
      const { checkCassetteFlag, prepareModelSource } = await import('../../scenario/modelSource.js');
      const named = flags.cassette === undefined ? undefined : await checkCassetteFlag(scenario, flags.cassette);
      if (named?.trial?.infraError !== undefined) {
        // Replaying it would judge the agent on answers the provider never gave.
        ctx.io.stdout.write(
          `faultline replay  ${scenario.name}: this trial was not judged: the provider failed ` +
            `(${named.trial.infraError}); nothing to replay\n`,
        );
        ctx.exitCode = ExitCode.NotJudged;
        return;
      }
      const override = named === undefined ? undefined : { modelCassette: named.file };
      if (override === undefined) await prepareModelSource(scenario, 'replay', ctx.io.env);
      const trial = await replayIsolated(
        {
          scenario,
          config,
          runSeed: flags.seed,
          trialIndex: flags.trial,
          refs: {
            scenario: refOf(scenario),
            config: refOf(config),
            ...(flags.agent !== undefined && { agent: flags.agent }),
          },
          isolation: isolationOf(flags),
          ...(override && { override }),
        },
        ctx.io,
      );
      if (typeof trial === 'number') {
        ctx.exitCode = trial;
        return;
      }
      printTrial(
        trial,
        ctx.io,
        flags.json === true,
        (p, status) =>
          `${p.bold('faultline replay')}  ${scenario.name} × ${flags.agent ?? trial.config}, seed ` +
          `${flags.seed}, trial ${trial.trialIndex}: ${status}`,
      );
      if (scenario.agent.kind === 'command' && flags.json !== true)
        ctx.io.stdout.write(`${realTimeNote([scenario.name])}\n`);
      ctx.exitCode = trial.status === 'passed' ? ExitCode.Ok : ExitCode.GateFailed;
    });
}
