import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import type { Scenario } from '../scenario/scenario.js';
import { loadConfigs, loadScenarios, refOf } from '../scenario/library.js';
import { assertPeersInstalled } from '../agent/kinds/optionalPeers.js';
import { readProjectConfig } from '../config/readProjectConfig.js';
import { checkCassetteFlag, prepareModelSource } from '../scenario/modelSource.js';
import { ExitCode } from './exitCodes.js';
import type { Io } from './io.js';
import type { SeedOption } from './options.js';
import { printTrial } from './printTrial.js';
import { realTimeNote } from './realTimeNote.js';
import { replayIsolated } from './replayIsolated.js';
import { withBehaviourFlag } from './behaviourFlag.js';
import { isolationOf, type IsolationFlags } from './commands/isolationFlags.js';

/** The flags of `faultline replay`, as commander hands them over. */
export interface ReplayFlags extends IsolationFlags {
  readonly config: string;
  readonly seed: SeedOption;
  readonly trial: number;
  readonly json?: boolean;
  readonly cassette?: string;
  readonly agent?: string;
  readonly configFile?: string;
  readonly behaviour?: string[];
}

/**
 * Runs one trial again, isolated as in the run, and prints its timeline and verdicts: 0 when it passes, 1 when it
 * fails, `NotJudged` for the recording of a trial the provider failed.
 */
export async function executeReplay(ref: string, flags: ReplayFlags, io: Io): Promise<ExitCode> {
  if (flags.seed === 'random')
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      'replay needs the seed of the run it reproduces (--seed <n>), not "random"',
    );
  const runSeed = flags.seed;
  const loaded = await loadOne(ref, flags);
  const { config } = loaded;
  const [scenario] = withBehaviourFlag([loaded.scenario], flags.behaviour, {
    note: (message) => io.stderr.write(`faultline: ${message}\n`),
  }) as [Scenario];
  await assertPeersInstalled([scenario], [config]);
  if (flags.cassette !== undefined && !scenario.model)
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `--cassette answers a scenario's model; "${scenario.name}" names no model`,
    );
  // A cassette that is not there or is no cassette is bad input, refused before the trial (not a `crashed` agent).
  const named = flags.cassette === undefined ? undefined : await checkCassetteFlag(scenario, flags.cassette);
  if (named?.trial?.infraError !== undefined) {
    // Replaying it would judge the agent on answers the provider never gave.
    io.stdout.write(
      `faultline replay  ${scenario.name}: this trial was not judged: the provider failed ` +
        `(${named.trial.infraError}); nothing to replay\n`,
    );
    return ExitCode.NotJudged;
  }
  const override = named === undefined ? undefined : { modelCassette: named.file };
  if (override === undefined) await prepareModelSource(scenario, 'replay', io.env);
  const trial = await replayIsolated(
    {
      scenario,
      config,
      runSeed,
      trialIndex: flags.trial,
      refs: {
        scenario: refOf(scenario),
        config: refOf(config),
        ...(flags.agent !== undefined && { agent: flags.agent }),
        ...(flags.behaviour !== undefined && { behaviour: flags.behaviour.join(',') }),
      },
      isolation: isolationOf(flags),
      ...(override && { override }),
    },
    io,
  );
  if (typeof trial === 'number') return trial;
  printTrial(
    trial,
    io,
    flags.json === true,
    (p, status) =>
      `${p.bold('faultline replay')}  ${scenario.name} × ${flags.agent ?? trial.config}, seed ` +
      `${runSeed}, trial ${trial.trialIndex}: ${status}`,
  );
  if (scenario.agent.kind === 'command' && flags.json !== true) io.stdout.write(`${realTimeNote([scenario.name])}\n`);
  return trial.status === 'passed' ? ExitCode.Ok : ExitCode.GateFailed;
}

/** The one scenario (under the project's defaults and the `--agent` picked) and the one configuration replayed. */
async function loadOne(
  ref: string,
  flags: ReplayFlags,
): Promise<{ readonly scenario: Scenario; readonly config: ExecutionConfig }> {
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
  return { scenario, config };
}
