import { FaultlineError, FaultlineErrorCode, isFaultlineError } from '../core/errors.js';

/**
 * Loads `refs` with `load`; when that fails on bad input and there are several refs, loads each
 * alone so the message lists every bad file at once (fix them all in one go, as tsc reports
 * every error), not just the first. Crashes and single refs are rethrown as they are.
 */
export async function loadAll<T>(refs: readonly string[], load: (refs: readonly string[]) => Promise<T[]>, what: string): Promise<T[]> {
  try {
    return await load(refs);
  } catch (first) {
    if (refs.length < 2 || !isInputError(first)) throw first;
    const errors: FaultlineError[] = [];
    for (const ref of refs) {
      try {
        await load([ref]);
      } catch (e) {
        if (!isInputError(e)) throw e;
        errors.push(e);
      }
    }
    // Every file loads alone: the fault lies between them (two scenarios with one name, say).
    if (errors.length < 2) throw first;
    throw new FaultlineError(errors[0]!.code, `${errors.length} ${what} files could not be loaded:\n\n${errors.map((e) => e.message).join('\n\n')}`, {
      errors: errors.map((e) => ({ code: e.code, message: e.message })),
    });
  }
}

const isInputError = (e: unknown): e is FaultlineError => isFaultlineError(e) && e.code !== FaultlineErrorCode.Internal;
