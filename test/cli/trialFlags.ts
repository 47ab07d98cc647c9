/** What a command that runs trials (`run`, `compare`) is told of them: how many per cell, the seed, the reporters and where the reports go. */
export interface TrialFlags {
  readonly k: number;
  readonly seed?: number;
  readonly reporters?: readonly string[];
  readonly out: string;
}

/** The trial flags as the CLI spells them (`--k 3 --seed 11 --reporter console --reporter json --out dir`). */
export const trialFlags = ({ k, seed, reporters = [], out }: TrialFlags): string[] => [
  '--k',
  String(k),
  ...(seed === undefined ? [] : ['--seed', String(seed)]),
  ...reporters.flatMap((r) => ['--reporter', r]),
  '--out',
  out,
];
