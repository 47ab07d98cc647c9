import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { matrixAgentOf } from '../scenario/library.js';
import { ignoresRetryConfig } from '../scenario/project.js';
import type { Scenario } from '../scenario/scenario.js';

/** A matrix agent that says so, or a scenario's own `http` or `command` agent: its code retries, not the runtime. */
export const ignoresConfigs = (s: Scenario): boolean =>
  matrixAgentOf(s)?.ignoresConfig ?? ignoresRetryConfig(s.agent.kind);

/**
 * What to say when retry configurations were asked for and some agents ignore them (`http` and
 * `command` agents retry in their own code, whether matrix agents or a scenario's own): refused when none of the run's
 * scenarios would use them, else a note that those agents ran once, labelled by their name.
 * `from` is where the configurations came from (`--config`, or the config file's key).
 */
export function notApplicable(
  scenarios: readonly Scenario[],
  configs: readonly { readonly name: string }[],
  from: string,
): { refuse: boolean; message: string } {
  const ignoring = [
    ...new Set(
      scenarios.filter(ignoresConfigs).map((s) => matrixAgentOf(s)?.name ?? `${s.name}'s ${s.agent.kind} agent`),
    ),
  ];
  if (ignoring.length === 0) return { refuse: false, message: '' };
  const names = configs.map((c) => c.name).join(', ');
  const one = ignoring.length === 1;
  const agents = `${one ? 'the agent' : 'the agents'} ${ignoring.join(', ')} ${one ? 'makes its' : 'make their'} own calls and retries`;
  const usesConfigs = scenarios.some((s) => !ignoresConfigs(s));
  const own = scenarios.filter((s) => ignoresConfigs(s) && matrixAgentOf(s) === undefined).map((s) => s.name);
  if (usesConfigs && own.length > 0) {
    // A scenario's own agent is not a matrix agent: its cells are not merged, so say what they are.
    return {
      refuse: false,
      message:
        `${from} (${names}) does not apply to ${ignoring.join(', ')}: ${agents}; the cells of ` +
        `${own.join(', ')} run the same program under each configuration`,
    };
  }
  if (!usesConfigs) {
    return {
      refuse: true,
      message:
        `${from} (${names}): ${agents}, so no retry configuration applies to ` +
        `${ignoring.length === 1 ? 'it' : 'them'}; leave the configurations out (the cells are labelled ` +
        `by agent), or pick a scripted or function agent with --agent`,
    };
  }
  return {
    refuse: false,
    message:
      `${from} (${names}) does not apply to ${ignoring.join(', ')}: ${agents}; ` +
      `${ignoring.length === 1 ? 'it runs' : 'they run'} once, ${ignoring.length === 1 ? 'its cells' : 'their cells'} labelled by agent`,
  };
}

/**
 * The one check of asked-for retry configurations that `run`, `compare`, `explore`, `sweep` and
 * `describeScenarios` make alike, so none accepts what another refuses: throws (usage, exit 2, naming
 * `from`) when no agent of the run would use them, unless `defaultsOnly` (a config file's retryConfigs,
 * the project's defaults, are left aside with the note instead). Returns the note to say ('' when none).
 */
export function checkConfigsApply(
  scenarios: readonly Scenario[],
  configs: readonly { readonly name: string }[],
  from: string,
  defaultsOnly = false,
): string {
  const { refuse, message } = notApplicable(scenarios, configs, from);
  if (refuse && !defaultsOnly) throw new FaultlineError(FaultlineErrorCode.Usage, message);
  return message;
}

/**
 * `checkConfigsApply` for configurations typed as `--config`, or (`configFile` given) taken from
 * that config file's `retryConfigs`: the project's defaults, a note and never a refusal.
 */
export const checkConfigFlag = (
  scenarios: readonly Scenario[],
  configs: readonly { readonly name: string }[],
  configFile: string | undefined,
): string =>
  configFile === undefined
    ? checkConfigsApply(scenarios, configs, '--config')
    : checkConfigsApply(scenarios, configs, `${configFile}: retryConfigs`, true);
