import { matrixAgentOf } from '../scenario/library.js';
import type { Scenario } from '../scenario/scenario.js';

/**
 * What to say when retry configurations were asked for and some matrix agents ignore them
 * (`http` and `command` agents retry in their own code): refused when none of the run's
 * scenarios would use them, else a note that those agents ran once, labelled by their name.
 * `from` is where the configurations came from (`--config`, or the config file's key).
 */
export function notApplicable(scenarios: readonly Scenario[], configs: readonly { readonly name: string }[], from: string): { refuse: boolean; message: string } {
  const ignoring = [...new Set(scenarios.map((s) => matrixAgentOf(s)).filter((a) => a?.ignoresConfig === true).map((a) => a!.name))];
  if (ignoring.length === 0) return { refuse: false, message: '' };
  const names = configs.map((c) => c.name).join(', ');
  const agents = `${ignoring.length === 1 ? 'the agent' : 'the agents'} ${ignoring.join(', ')} ${ignoring.length === 1 ? 'makes its' : 'make their'} own calls and retries`;
  const usesConfigs = scenarios.some((s) => matrixAgentOf(s)?.ignoresConfig !== true);
  if (!usesConfigs) {
    return {
      refuse: true,
      message: `${from} (${names}): ${agents}, so no retry configuration applies to ${ignoring.length === 1 ? 'it' : 'them'}; leave the configurations out (the cells are labelled by agent), or pick a scripted or function agent with --agent`,
    };
  }
  return { refuse: false, message: `${from} (${names}) does not apply to ${ignoring.join(', ')}: ${agents}; ${ignoring.length === 1 ? 'it runs' : 'they run'} once, ${ignoring.length === 1 ? 'its cells' : 'their cells'} labelled by agent` };
}
