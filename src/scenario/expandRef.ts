import { extname, isAbsolute, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

/** A bare word (no separator, no extension) names a built-in scenario or configuration, not a path. */
export const isBareName = (ref: string): boolean => !ref.includes('/') && !ref.includes('\\') && extname(ref) === '';

/**
 * A scenario or configuration reference as written in a config file or a test, read from
 * `dir`: a glob becomes the files it matches (sorted; none is an empty list, for the caller
 * to report), a relative path becomes absolute, a built-in name stays as it is.
 */
export async function expandRef(ref: string, dir: string): Promise<string[]> {
  if (isDynamicPattern(ref)) return (await glob(ref, { cwd: dir, absolute: true, onlyFiles: true })).sort();
  return [isBareName(ref) || isAbsolute(ref) ? ref : resolve(dir, ref)];
}
