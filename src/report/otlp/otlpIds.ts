import { createHash } from 'node:crypto';

/** What names one trial across runs: the same values give the same trace, whatever the worker count. */
export interface TrialKey {
  readonly runSeed: number;
  readonly seed: number;
  readonly scenario: string;
  readonly config: string;
  readonly trialIndex: number;
  /** The cell's agent and behaviour, where a matrix or `--behaviour a,b` runs one scenario under one configuration several ways. */
  readonly refs?: { readonly agent?: string; readonly behaviour?: string };
}

// A hash, not a counter or a random id: the ids must come out the same on 0, 1 or 2 workers and on a replay.
const digest = (parts: readonly (string | number)[]): string =>
  createHash('sha256').update(parts.map(String).join('\u0000')).digest('hex');

// OTLP treats an all-zero id as invalid; a sha-256 prefix of zeros is as likely as a collision, but costs nothing to rule out.
const nonZero = (hex: string): string => (/^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex);

// The agent and the behaviour keep the trial seed (the scenario's name stays), so two cells' trial 0 differ only there.
const cellOf = (k: TrialKey): (string | number)[] => [
  k.runSeed,
  k.seed,
  k.scenario,
  k.config,
  k.refs?.agent ?? '',
  k.refs?.behaviour ?? '',
];

/** The trial's trace id: 32 hex digits from (run seed, trial seed, scenario, configuration, trial index). */
export const traceIdOf = (k: TrialKey): string => nonZero(digest(['trace', ...cellOf(k), k.trialIndex]).slice(0, 32));

/** A span id: 16 hex digits from the trial's key and the span's own name in it (the history event's seq that opened it). */
export const spanIdOf = (k: TrialKey, span: string): string =>
  nonZero(digest(['span', ...cellOf(k), k.trialIndex, span]).slice(0, 16));
