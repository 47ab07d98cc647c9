import { Option } from 'commander';
import { collect } from '../options.js';

/**
 * `--behaviour` (run, compare, explore, sweep): the scripted stand-in's behaviour in every scenario; checked once the
 * command runs. `several` (run, compare): several behaviours, a cell each, as the agents matrix gives a cell per agent.
 */
export const behaviourOption = (several = false): Option =>
  new Option(
    '--behaviour <name|mix>',
    "the scripted stand-in's behaviour in every scenario, over the scenario's own: a name, such as careful or " +
      'ignores-retry-after, or a mixture drawn per decision, such as careful=0.9,ignores-retry-after=0.1' +
      (several
        ? '; several side by side, a cell each: careful,retries-blindly (or the flag repeated; a mixture is one)'
        : ''),
  ).argParser(collect);
