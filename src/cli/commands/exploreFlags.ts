import type { ScenarioProject } from '../../scenario/project.js';
import type { SeedOption } from '../options.js';
import type { IsolationFlags } from './isolationFlags.js';

/** The flags of `faultline explore`, as commander hands them over. */
export interface ExploreFlags extends IsolationFlags {
  readonly config?: string[];
  /** The config file `config` came from (its `retryConfigs`), when not typed as `--config`. */
  readonly configsFrom?: string;
  /** `--behaviour`: the scripted stand-in's behaviour in every scenario. */
  readonly behaviour?: string[];
  readonly runs: number;
  readonly time?: number;
  readonly seed: SeedOption;
  readonly out: string;
  readonly path?: string;
  readonly replaceFaults?: boolean;
  readonly lies?: boolean;
  /** `--crash-only`: crash points alone, in place of the scenario's own crash. */
  readonly crashOnly?: boolean;
  readonly check?: string[];
  readonly ignore?: string[];
  readonly grep?: RegExp;
  readonly configFile?: string;
  /** `--agent`: the matrix agents (faultline.config.ts's `agents`) to explore; all when absent. */
  readonly agent?: string[];
  /** Set from the config file: its `defaults` and `agents`, applied to every scenario loaded. */
  readonly project?: ScenarioProject;
}

/** `--runs` when not given: enough to find a plain bug in a second or two per scenario. */
export const DEFAULT_RUNS = 100;
export const DEFAULT_REGRESSIONS_DIR = 'scenarios/regressions';

/** What `faultline explore` runs: its flags and the scenarios named. */
export interface ExploreRequest extends ExploreFlags {
  readonly scenarios: readonly string[];
}

/** `--check` and `--ignore` as lists: each repeatable, each value a comma list. */
export const flagNames = (values: readonly string[] | undefined): string[] =>
  (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim());
