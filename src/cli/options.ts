import { InvalidArgumentError } from 'commander';
import { isFaultlineError } from '../core/errors.js';
import { parseGate, type Gate } from '../stats/gates.js';
import { parseShard, type Shard } from '../runner/shard.js';
import type { ReporterName } from '../report/write.js';
import { MAX_K } from '../scenario/maxK.js';
import { otlpTracesUrl } from '../report/otlp/otlpEndpoint.js';

/** Flag parsers for commander: each throws `InvalidArgumentError`, which commander reports with the flag's name (exit 2). */

// Seeds feed a 32-bit hash as text, so any safe integer works; keep them non-negative so they read well in a command line.
const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** A whole number ≥ `min`, written in decimal digits only (no `1e3`, no `0x10`, no `4.0`). */
export function parseInteger(value: string, min: number, what: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected ${what}, got "${value}"`);
  const n = Number(value.trim());
  if (!Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`expected ${what}, got "${value}"`);
  return n;
}

export function parseK(value: string): number {
  const k = parseInteger(value, 1, `a whole number of trials, from 1 to ${MAX_K}`);
  if (k > MAX_K)
    throw new InvalidArgumentError(
      `expected a whole number of trials, from 1 to ${MAX_K} (at most ${MAX_K} per scenario × ` +
        `configuration: shard a larger run), got "${value}"`,
    );
  return k;
}

/** `--trials` of `serve` and `mcp-serve`: how many trials a session serves. */
export const parsePositive = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
};

export const parseTrialIndex = (value: string): number => parseInteger(value, 0, 'a trial index (0, 1, 2…)');

export type SeedOption = number | 'random';

export function parseSeed(value: string): SeedOption {
  if (value.trim() === 'random') return 'random';
  const n = parseInteger(value, 0, `a seed (a whole number from 0 to ${MAX_SEED}, or "random")`);
  if (n > MAX_SEED) throw new InvalidArgumentError(`expected a seed up to ${MAX_SEED}, got "${value}"`);
  return n;
}

/** Repeatable string flags: commander calls this once per occurrence. */
export const collect = (value: string, previous: readonly string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

/** A repeatable flag that also takes a comma list (`--agent a,b --agent c`). */
export function collectNames(value: string, previous: readonly string[] | undefined): string[] {
  const names = value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  // An empty value would pick no agent at all: a run of nothing that exits 0.
  if (names.length === 0) throw new InvalidArgumentError(`expected a name (or a comma list of names), got "${value}"`);
  return [...(previous ?? []), ...names];
}

export function collectGate(value: string, previous: readonly Gate[] | undefined): Gate[] {
  try {
    return [...(previous ?? []), parseGate(value)];
  } catch (e) {
    if (isFaultlineError(e)) throw new InvalidArgumentError(e.message);
    throw e;
  }
}

/** The reporters' names, kept here so parsing flags does not load the reporters (a unit test keeps it equal to `REPORTER_NAMES`). */
export const REPORTER_CHOICES = [
  'console',
  'dot',
  'list',
  'json',
  'junit',
  'markdown',
  'html',
  'otlp',
] as const satisfies readonly ReporterName[];
/** What a command writes when `--reporter` is not given: report.html only on request (`--html`). */
export const DEFAULT_REPORTERS = ['console', 'json', 'junit', 'markdown'] as const satisfies readonly ReporterName[];

export function collectReporter(value: string, previous: readonly ReporterName[] | undefined): ReporterName[] {
  const name = REPORTER_CHOICES.find((r) => r === value.trim());
  if (name === undefined)
    throw new InvalidArgumentError(`unknown reporter "${value}" (one of: ${REPORTER_CHOICES.join(', ')})`);
  return [...(previous ?? []), name];
}

/** `--otlp-endpoint URL`: an http(s) URL, `/v1/traces` added when it has no path. */
export function parseOtlpEndpoint(value: string): URL {
  try {
    return otlpTracesUrl(value);
  } catch (e) {
    if (isFaultlineError(e)) throw new InvalidArgumentError(e.message);
    throw e;
  }
}

/** `--shard 2/4`. */
export function parseShardFlag(value: string): Shard {
  try {
    return parseShard(value);
  } catch (e) {
    if (isFaultlineError(e)) throw new InvalidArgumentError(e.message);
    throw e;
  }
}

/** `--grep` takes a regular expression, matched against scenario names. */
export function parseGrep(value: string): RegExp {
  try {
    return new RegExp(value);
  } catch (e) {
    throw new InvalidArgumentError(`not a regular expression: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** `--bail N` / `--max-failures N`: failing trials after which the run stops; 0 never stops (as vitest's and Playwright's 0). */
export const parseBail = (value: string): number =>
  parseInteger(value, 0, 'a number of failing trials after which the run stops (0: never)');
