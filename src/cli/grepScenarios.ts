import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';

/**
 * The entries whose name matches `--grep` (all of them without it); none matching is refused,
 * naming what there is, each name once (a matrix scenario loads once per agent, under one name).
 */
export function pickByGrep<T extends { readonly name: string }>(entries: readonly T[], grep: RegExp | undefined, what = 'scenario'): T[] {
  if (grep === undefined) return [...entries];
  const chosen = entries.filter((s) => grep.test(s.name));
  if (chosen.length === 0) {
    throw new FaultlineError(FaultlineErrorCode.Usage, `--grep ${grep.source} matches no ${what} (${what}s: ${[...new Set(entries.map((s) => s.name))].join(', ')})`);
  }
  return chosen;
}
