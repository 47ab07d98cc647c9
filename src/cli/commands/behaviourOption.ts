import { Option } from 'commander';
import { collect } from '../options.js';

/** `--behaviour` (run, compare, explore): the scripted stand-in's behaviour in every scenario; checked once the command runs. */
export const behaviourOption = (): Option =>
  new Option(
    '--behaviour <name|mix>',
    "the scripted stand-in's behaviour in every scenario, over the scenario's own: a name, such as careful or " +
      'ignores-retry-after, or a mixture drawn per decision, such as careful=0.9,ignores-retry-after=0.1',
  ).argParser(collect);
