import { Command } from 'commander';
import { SWEEP_FAULTS } from '../../sweep/sweepFaultDefaults.js';
import type { CliContext } from '../context.js';
import { behaviourOption } from './behaviourOption.js';
import { collect, collectGate, parseGrep, parseInteger, parseK, parseSeed, parseTrialIndex } from '../options.js';
import { addProjectFlags } from './projectFlags.js';
import { addSweepFaultFlags, collectReporter, parseUpTo, REPORTERS, type SweepFlags } from './sweepFlags.js';

/** `text` broken at spaces into lines of at most `width` characters, for the help text. */
const wrap = (text: string, width: number): string =>
  text
    .split(' ')
    .reduce<string[]>((lines, word) => {
      const last = lines.at(-1);
      if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
      else lines.push(word);
      return lines;
    }, [])
    .join('\n');

const EXAMPLES = `
Examples:
  $ faultline sweep                                       the library, every built-in configuration, rate_limit and unavailable, λ 0…0.5
  $ faultline sweep --config naive --config rulebook --fault rate_limit --lambda 0:0.5:0.1 --k 8
  $ faultline sweep my-scenarios/ --fault timeout --fault '{kind: unavailable, status: 502}' --mix --lambda 0,0.05,0.1,0.2
  $ faultline sweep --config rulebook --gate 'pass^k>=1' --gate-up-to 0.1  every scenario passes all its trials up to λ = 0.1
  $ faultline sweep email-rate-limit-seconds --config naive --fault rate_limit --lambda 0.3 --seed 1 --replay 2

At each λ, each named fault hits every tool call's delivery with probability λ (drawn from the
trial's seeded rng), after the scenario's own faults; status queries only with --status-queries.
One series (a curve) per fault; with --mix one series of all of them, sharing λ: each of n
kinds hits with probability λ/n, so λ stays the chance that a delivery is faulted. Each point
runs the whole matrix (scenarios × configurations × k) with a seed of its own, derived from
--seed, the series and λ. Reports: a table per series (pass^1 / pass^k by configuration and by
scenario), sweep.json, sweep.md and sweep.html (pass^k against λ, a line per configuration).
Every point with a failing trial prints the --replay command that reruns one.

A fault is a kind, with defaults for the kinds that need parameters (unavailable: 503,
network: ECONNRESET, latency: 15000 ms, partial_write: lost as a timeout, duplicate: 2 copies,
permission_denied: 403), or a whole fault inline in YAML. The kinds:
${wrap(Object.keys(SWEEP_FAULTS).join(', '), 92)}
Every point shows how often each fault rule fired in each cell. The scenario's own rules count
as in "faultline run"; the sweep's rules may miss a cell (a draw at λ), but one that fired in no
trial of the whole point at λ > 0 leaves the point not exercised (--may-not-fire allows it).
No gate applies unless --gate names one: then every point up to --gate-up-to must hold it, and
unexercised==0 beside it, as "faultline run" judges coverage.
With faultline.config.ts, its defaults fill every scenario and each agent of its agents matrix is
swept as a cell of its own, labelled by the agent (--agent picks).
Exit codes: 0 when the sweep ran and every gate held, 1 when a gate failed (or the --replay
trial failed), 2 on bad input, 130/143/129 when stopped (the partial reports are written).`;

/** `faultline sweep [scenarios…]`: pass^k against fault intensity λ. */
export function createSweepCommand(ctx: CliContext): Command {
  const cmd = new Command('sweep')
    .description(
      'run the scenarios under faults of rising intensity λ and report pass^1 and pass^k at each λ per configuration',
    )
    .argument('[scenarios...]', 'scenario files, folders or built-in names (default: the built-in library)');
  return addProjectFlags(
    addSweepFaultFlags(cmd)
      .option(
        '--config <name|file>',
        'retry configuration: built-in name or file (repeatable; default: every built-in configuration)',
        collect,
      )
      .addOption(behaviourOption())
      .option('--k <n>', 'trials per scenario × configuration at each λ', parseK, 4)
      .option('--seed <n|random>', 'sweep seed; each point gets its own seed from it', parseSeed, 1)
      .option('--out <dir>', 'folder sweep.json, sweep.md and sweep.html go to', 'reports')
      .option('--reporter <name>', `${REPORTERS.join(', ')} (repeatable; default: all)`, collectReporter)
      .option('-t, --grep <pattern>', 'only scenarios whose name matches this regular expression', parseGrep)
      .option(
        '--workers <n>',
        'worker threads each point runs on (default: as "faultline run" chooses when a scenario runs ' +
          'your own agent or service code, else 0: in this process)',
        (v) => parseInteger(v, 0, 'a number of workers, 0 or more'),
      )
      .option(
        '--gate <expr>',
        'a gate every point must hold, judged per scenario × configuration as "faultline run" does, e.g. ' +
          '"config=rulebook:pass^k>=1" (repeatable; default: none)',
        collectGate,
      )
      .option(
        '--gate-up-to <λ>',
        'judge the gates only at the points with λ up to this one (default: every point)',
        parseUpTo,
      )
      .option(
        '--may-not-fire',
        "the sweep's own faults may fire in no trial of a point at any λ (a probability sweep with few trials): shown, never failed",
      )
      .option(
        '--replay <i>',
        'rerun trial i of one scenario, configuration, series and λ, and print its timeline (as "faultline replay" does)',
        parseTrialIndex,
      )
      .option('--json', 'with --replay: print the trial history as JSON instead'),
    'its scenarios, retryConfigs, seed, k, outDir, grep, defaults and agents',
  )
    .addHelpText('after', EXAMPLES)
    .action(async (scenarios: string[], flags: SweepFlags) => {
      // The fault schema loads only once the command runs, so --help stays quick; a bad --fault still exits 2 naming the flag.
      const [{ executeSweepCommand }, { withSharedConfigFile }] = await Promise.all([
        import('../executeSweepCommand.js'),
        import('../withConfigFile.js'),
      ]);
      ({ scenarios, flags } = await withSharedConfigFile(cmd, scenarios, flags, (config, typed, file) => ({
        ...(!typed('k') && config.k !== undefined && { k: config.k, kFrom: file }),
        ...(!typed('out') && config.outDir !== undefined && { out: config.outDir }),
      })));
      ctx.exitCode = await executeSweepCommand(scenarios, flags, ctx.io);
    });
}
