import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';

/**
 * The entries whose name matches `--grep` (all of them without it); none matching is refused,
 * naming what there is, each name once (a matrix scenario loads once per agent, under one name).
 */
// A pattern that came from faultline.config.ts's `grep`, with where: a refusal names the file's key, not a flag never typed.
const fromFile = new WeakMap<RegExp, string>();

/** `grep` as the config file gave it, labelled `faultline.config.ts: grep` for messages. */
export function grepFromConfigFile(pattern: string, file: string): RegExp {
  const grep = new RegExp(pattern);
  fromFile.set(grep, `${file}: grep`);
  return grep;
}

export function pickByGrep<T extends { readonly name: string }>(
  entries: readonly T[],
  grep: RegExp | undefined,
  what = 'scenario',
): T[] {
  if (grep === undefined) return [...entries];
  const chosen = entries.filter((s) => grep.test(s.name));
  if (chosen.length === 0) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${fromFile.get(grep) ?? '--grep'} ${grep.source} matches no ${what} (${what}s: ` +
        `${[...new Set(entries.map((s) => s.name))].join(', ')})`,
    );
  }
  return chosen;
}
