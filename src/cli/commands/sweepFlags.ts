import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_LAMBDAS, mergeLambdas, parseLambdas } from '../../sweep/lambdaGrid.js';
import { DEFAULT_SWEEP_FAULTS } from '../../sweep/sweepFaultDefaults.js';
import type { Gate } from '../../stats/gates.js';
import type { ScenarioProject } from '../../scenario/project.js';
import { collect, type SeedOption } from '../options.js';
import type { IsolationFlags } from './isolationFlags.js';

export const REPORTERS = ['console', 'json', 'markdown', 'html'] as const;
export type Reporter = (typeof REPORTERS)[number];

/** The flags of `faultline sweep`, as commander hands them over. */
export interface SweepFlags extends IsolationFlags {
  /** The config file `config` came from (its `retryConfigs`), when not typed as `--config`. */
  readonly configsFrom?: string;
  readonly configFile?: string;
  readonly agent?: string[];
  readonly project?: ScenarioProject;
  /** The config file k came from, when --k was not typed. */
  readonly kFrom?: string;
  readonly fault?: string[];
  readonly lambda?: (readonly number[])[];
  readonly mix?: boolean;
  /** `--crash`: crash points of the agent (inline YAML, as `crash.agent` takes them). */
  readonly crash?: string[];
  readonly statusQueries?: boolean;
  readonly config?: string[];
  /** `--behaviour`: the scripted stand-in's behaviour in every scenario (one, or one mixture). */
  readonly behaviour?: string[];
  readonly k: number;
  readonly seed: SeedOption;
  readonly out: string;
  readonly reporter?: Reporter[];
  readonly grep?: RegExp;
  readonly workers?: number;
  readonly replay?: number;
  readonly json?: boolean;
  readonly gate?: Gate[];
  readonly gateUpTo?: number;
  readonly mayNotFire?: boolean;
}

export function collectLambda(value: string, previous: (readonly number[])[] | undefined): (readonly number[])[] {
  const parsed = parseLambdas(value);
  if (parsed.kind === 'error') throw new InvalidArgumentError(parsed.message);
  const grids = [...(previous ?? []), parsed.lambdas];
  const merged = mergeLambdas(grids);
  if (merged.kind === 'error') throw new InvalidArgumentError(merged.message);
  return grids;
}

export function parseUpTo(value: string): number {
  const parsed = parseLambdas(value);
  if (parsed.kind === 'error' || parsed.lambdas.length !== 1)
    throw new InvalidArgumentError(`expected one λ, a probability such as 0.2, got "${value}"`);
  return parsed.lambdas[0]!;
}

export function collectReporter(value: string, previous: Reporter[] | undefined): Reporter[] {
  const name = REPORTERS.find((r) => r === value.trim());
  if (name === undefined)
    throw new InvalidArgumentError(`unknown sweep reporter "${value}" (one of: ${REPORTERS.join(', ')})`);
  return [...(previous ?? []), name];
}

/** The flags that say which faults a sweep raises, and how: `--fault`, `--lambda`, `--mix`, `--status-queries`. */
export function addSweepFaultFlags(cmd: Command): Command {
  return cmd
    .option(
      '--fault <kind|yaml>',
      `a fault to sweep: a kind or an inline fault (repeatable; default: ${DEFAULT_SWEEP_FAULTS.join(', ')})`,
      collect,
    )
    .option(
      '--lambda <list|from:to:step>',
      `fault probabilities per delivery, e.g. 0,0.1,0.2 or 0:0.5:0.1 (repeatable; default: ${DEFAULT_LAMBDAS.join(',')})`,
      collectLambda,
    )
    .option(
      '--crash <yaml>',
      "a crash point of the agent, as a scenario's crash.agent takes it, e.g. '{afterEffectOf: create_order}': " +
        'every series runs again under it (repeatable; a command agent)',
      collect,
    )
    .option(
      '--mix',
      'one series of every --fault together, sharing λ (each of n kinds at λ/n), instead of one series per fault',
    )
    .option(
      '--status-queries',
      "the faults hit the execution layer's status queries (reconciliation) too, not only the calls",
    );
}
