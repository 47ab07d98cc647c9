import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { DEFAULT_LAMBDAS, mergeLambdas } from '../sweep/lambdaGrid.js';
import { DEFAULT_SWEEP_FAULTS } from '../sweep/sweepFaultDefaults.js';
import { parseSweepCrash, parseSweepFault } from '../sweep/sweepFaults.js';
import { builtinConfigs } from './commands/compare.js';
import { isolationOf } from './commands/isolationFlags.js';
import { REPORTERS, type SweepFlags } from './commands/sweepFlags.js';
import type { ExitCode } from './exitCodes.js';
import { executeSweep, executeSweepReplay } from './executeSweep.js';
import type { Io } from './io.js';

/** `faultline sweep` from its flags (the config file's already in them): the sweep, or with `--replay` one of its trials. */
export async function executeSweepCommand(scenarios: string[], flags: SweepFlags, io: Io): Promise<ExitCode> {
  // --json shapes what --replay prints; alone it would be dropped without a word (sweep.json is always written).
  if (flags.json === true && flags.replay === undefined)
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      "--json prints a replayed trial's history as JSON: give it with --replay <i> (the sweep " +
        'itself always writes sweep.json to --out)',
    );
  const faults = (flags.fault ?? DEFAULT_SWEEP_FAULTS).map((text) => {
    const parsed = parseSweepFault(text);
    if (parsed.kind === 'error')
      throw new FaultlineError(FaultlineErrorCode.Usage, `--fault ${text}: ${parsed.message}`);
    return parsed.fault;
  });
  const crashes = (flags.crash ?? []).map((text) => {
    const parsed = parseSweepCrash(text);
    if (parsed.kind === 'error')
      throw new FaultlineError(FaultlineErrorCode.Usage, `--crash ${text}: ${parsed.message}`);
    return parsed.crash;
  });
  const common = {
    scenarios,
    seed: flags.seed,
    faults,
    crashes,
    mix: flags.mix === true,
    target: flags.statusQueries === true ? ('any' as const) : ('call' as const),
    lambdas: flags.lambda ? (mergeLambdas(flags.lambda) as { lambdas: readonly number[] }).lambdas : DEFAULT_LAMBDAS,
    ...(flags.grep && { grep: flags.grep }),
    ...(flags.behaviour && { behaviour: flags.behaviour }),
    ...(flags.project && { project: flags.project }),
    isolation: isolationOf(flags),
    ...(flags.config !== undefined && { configsGiven: true }),
    ...(flags.configsFrom !== undefined && { configsFrom: flags.configsFrom }),
  };
  if (flags.replay !== undefined)
    return executeSweepReplay(
      { ...common, configs: flags.config ?? ['rulebook'] },
      flags.replay,
      flags.json === true,
      io,
    );
  return executeSweep(
    {
      ...common,
      configs: flags.config ?? (await builtinConfigs()),
      k: flags.k,
      ...(flags.kFrom !== undefined && { kFrom: flags.kFrom }),
      outDir: flags.out,
      reporters: flags.reporter ?? [...REPORTERS],
      ...(flags.workers !== undefined && { workers: flags.workers }),
      ...(flags.gate && { gates: flags.gate }),
      ...(flags.gateUpTo !== undefined && { gateUpTo: flags.gateUpTo }),
      ...(flags.mayNotFire === true && { mayNotFire: true }),
    },
    io,
  );
}
