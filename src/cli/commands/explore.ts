import { Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { collect, parseGrep, parseInteger, parseSeed } from '../options.js';
import { addProjectFlags } from './projectFlags.js';
import { behaviourOption } from './behaviourOption.js';
import { DEFAULT_REGRESSIONS_DIR, DEFAULT_RUNS, type ExploreFlags } from './exploreFlags.js';

const EXAMPLES =
  `
Examples:
  $ faultline explore order-partial-write-no-idempotency --replace-faults
  $ faultline explore ./faultline/scenarios/ --config rulebook --config ./retry.yaml --runs 500 --time 60
  $ faultline explore my-agent.scenario.ts --seed 7 --out test/regressions
  $ faultline explore order-x --seed 7 --path "4:0:0:1"      start at the counterexample of an earlier run
  $ faultline explore order-x --config naive --ignore R23,budget   every other failure class
  $ faultline explore ticket.yaml --agent openai        one agent of faultline.config.ts's agents
  $ faultline explore crash/naive-after-create.yaml --crash-only --runs 20   where killing the agent breaks it

For each scenario × configuration, fast-check generates fault plans over the scenario's tools
(every fault kind, with targets by tool, call, attempt and purpose, times, time windows and
probabilities) and runs one trial per plan, the plan after the scenario's own faults (or
instead of them, with --replace-faults). A plan fails when a checker other than goal-state
fails, or the agent crashes: under a generated plan the goal may be out of reach, but the
agent must stay safe and honest (choose the checkers with --check, leave out checkers and
rules with --ignore). The search tries every plan of the budget and keeps the first plan of
each failure class (a checker and the rule it cites, such as duplicates/R24, or crashed) that
the scenario does not show on its own; each is shrunk to the smallest plan that still shows
its class and written as a regression scenario into --out, with the command that reproduces it.
A failing plan counts as evidence of a class only if at least one of its own rules fired, during
the search and each shrink step; the output says which rules of each shrunk plan fired, and how
many plans tried exercised their faults. Where the scenario's own trial streams a model route,
stream faults (stream_cut, stream_stall, stream_malformed) are generated on it too. Where the agent can
be crashed (a command agent), about half the plans also carry a crash point (crash.agent: after
the n-th effect of a tool that writes, after the n-th tool request, at a time; shrunk towards the
first effect and towards no other rule), unless the scenario has its own crash and neither
--replace-faults nor --crash-only replaces it. Each plan's trial runs on a worker thread as in
"faultline run": an agent that exits, crashes its thread or spins fails its plan (crashed, hung). ` +
  `The same seed gives the same plans and the same file.
With faultline.config.ts, its defaults fill every scenario and its agents matrix is explored
agent by agent (an agent with its own retries, http or command, under the first configuration only).
Exit codes: 0 no plan failed, 1 a plan failed, the scenario fails on its own, or no generated
rule fired in any plan (the search tested nothing), 2 bad input.`;

/** `faultline explore [scenarios…]`: search for a fault plan that breaks the agent, and keep it. */
export function createExploreCommand(ctx: CliContext): Command {
  const cmd = new Command('explore')
    .description(
      'generate fault plans with fast-check, shrink one failing plan per failure class and write each as a regression scenario',
    )
    .argument('[scenarios...]', 'scenario files, folders or built-in names (default: the built-in library)')
    .option(
      '--config <name|file>',
      'retry configuration: built-in name or file (repeatable; default: rulebook)',
      collect,
    )
    .addOption(behaviourOption())
    .option(
      '--runs <n>',
      'fault plans to try per scenario × configuration',
      (v) => parseInteger(v, 1, 'a number of plans, at least 1'),
      DEFAULT_RUNS,
    )
    .option(
      '--time <s>',
      'wall-clock seconds per scenario × configuration before the search stops (the plans tried so far count)',
      (v) => parseInteger(v, 1, 'seconds, at least 1'),
    )
    .addOption(
      new Option(
        '--seed <n|random>',
        'explore seed: the plans fast-check draws and every trial\'s run seed; "random" picks one and prints it',
      )
        .argParser(parseSeed)
        .default(1),
    )
    .option('--out <dir>', 'folder the regression scenarios are written to', DEFAULT_REGRESSIONS_DIR)
    .option(
      '--path <path>',
      "fast-check's replay path from a regression file's header: start at that plan (one scenario × configuration)",
    )
    .option('--replace-faults', "run each plan instead of the scenario's own faults, not after them")
    .option(
      '--lies',
      'also draw faults that look like success (stale, empty, truncated, wrong_value), a quarter of the rules',
    )
    .option(
      '--crash-only',
      "draw only crash points of the agent (crash.agent: after a write's effect, after a request, at a time), " +
        "no fault rules, in place of the scenario's own crash",
    )
    .option('-t, --grep <pattern>', 'only scenarios whose name matches this regular expression', parseGrep)
    .option(
      '--check <names>',
      'checkers that decide whether a plan fails (repeatable, or a comma list; default: all the scenario runs but goal-state)',
      collect,
    )
    .option(
      '--ignore <names>',
      'checkers, rules or failure classes not to report, such as retry-discipline, R7, duplicates/R24 ' +
        'or crashed (repeatable, or a comma list)',
      collect,
    );
  return addProjectFlags(cmd, 'its scenarios, retryConfigs, seed, grep, defaults and agents')
    .addHelpText('after', EXAMPLES)
    .action(async (scenarios: string[], flags: ExploreFlags) => {
      // The engine loads only once a command runs, so --help stays quick.
      const [{ executeExplore }, { withSharedConfigFile }] = await Promise.all([
        import('../executeExplore.js'),
        import('../withConfigFile.js'),
      ]);
      ({ scenarios, flags } = await withSharedConfigFile(cmd, scenarios, flags));
      ctx.exitCode = await executeExplore({ scenarios, ...flags }, ctx.io);
    });
}
