import { relative } from 'node:path';
import { FaultlineError, FaultlineErrorCode, isFaultlineError } from '../core/errors.js';

/**
 * Loads `refs` with `load`; when that fails on bad input and there are several refs, loads each
 * alone so the message lists every bad file at once (fix them all in one go, as tsc reports
 * every error), not just the first. Crashes and single refs are rethrown as they are.
 */
export async function loadAll<T>(
  refs: readonly string[],
  load: (refs: readonly string[]) => Promise<T[]>,
  what: string,
  from?: (ref: string) => string | undefined,
): Promise<T[]> {
  try {
    return await load(refs);
  } catch (first) {
    if (!isInputError(first)) throw first;
    if (refs.length < 2) throw from && refs[0] !== undefined ? labelled(first, refs[0], from) : first;
    const errors: FaultlineError[] = [];
    for (const ref of refs) {
      try {
        await load([ref]);
      } catch (e) {
        if (!isInputError(e)) throw e;
        errors.push(from ? labelled(e, ref, from) : e);
      }
    }
    if (errors.length === 1 && from) throw errors[0]!;
    // Every file loads alone: the fault lies between them (two scenarios with one name, say).
    if (errors.length < 2) throw first;
    throw new FaultlineError(
      errors[0]!.code,
      `${errors.length} ${what} files could not be loaded:\n\n${errors.map((e) => e.message).join('\n\n')}`,
      {
        errors: errors.map((e) => ({ code: e.code, message: e.message })),
      },
    );
  }
}

const isInputError = (e: unknown): e is FaultlineError => isFaultlineError(e) && e.code !== FaultlineErrorCode.Internal;

/** The error of a ref the config file named, headed by the file and its entry (`faultline.config.ts: scenarios[1] (bad.yaml): …`). */
function labelled(error: FaultlineError, ref: string, from: (ref: string) => string | undefined): FaultlineError {
  const origin = from(ref);
  if (origin === undefined) return error;
  // The message starts with the file it is about, which the entry already names.
  const shown = [ref, relative(process.cwd(), ref)].find((p) => error.message.startsWith(`${p}: `));
  const rest = shown === undefined ? error.message : error.message.slice(shown.length + 2);
  return new FaultlineError(error.code, `${origin}: ${rest}`, error.details);
}
