import Module from 'node:module';
import { fileURLToPath } from 'node:url';

type ExtensionHandler = (module: unknown, filename: string) => void;
type Extensions = Record<string, ExtensionHandler>;

/** Set once this process's `.js` handler keeps faultline's own built modules out of tsx's hands. */
const INSTALLED = Symbol.for('faultline.ownModulesNative');

/** Errors of a native `require` that cannot load an ES module here (the flag turned off, a top-level await). */
const NOT_REQUIRABLE = new Set(['ERR_REQUIRE_ESM', 'ERR_REQUIRE_ASYNC_MODULE']);

/**
 * Wraps the `.js` handler tsx's CommonJS hook installed so that a `require` of faultline's own
 * built files (`dist/`) is Node's own. A user's `.ts` file in a package that is not
 * `"type": "module"` (a fresh `npm init`, a folder with no package.json) is CommonJS, and its
 * `import { defineService } from 'faultline'` becomes a `require`; tsx answers one by compiling
 * the whole of faultline again to CommonJS: a second copy of every module, whose classes and
 * state are not the runner's, and about 0.4 s of CPU in each process that loads such a file (the
 * CLI and every trial worker). Node (20.19 and later) requires an ES module natively, from the
 * one module cache `import` fills, so the file gets the copy this process runs. Where Node cannot
 * (`--no-experimental-require-module`, a module with a top-level await) tsx's handler still does.
 * `handlers` is `Module._extensions`, given by tests; `dist` the folder of faultline's build.
 */
export function keepOwnModulesNative(
  before: ExtensionHandler,
  handlers: Extensions = (Module as unknown as { _extensions: Extensions })._extensions,
  dist: string = fileURLToPath(new URL('../../dist/', import.meta.url)),
): void {
  const flags = handlers as Extensions & { [INSTALLED]?: boolean };
  if (flags[INSTALLED] === true) return;
  const tsx = handlers['.js'];
  if (tsx === undefined || tsx === before) return;
  handlers['.js'] = function ownModulesNative(this: unknown, module: unknown, filename: string): void {
    if (!filename.startsWith(dist)) return tsx.call(this, module, filename);
    try {
      return before.call(this, module, filename);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && NOT_REQUIRABLE.has(code)) return tsx.call(this, module, filename);
      throw error;
    }
  };
  flags[INSTALLED] = true;
}

/** The `.js` handler in place now: taken before tsx registers its own. */
export const jsHandler = (): ExtensionHandler => (Module as unknown as { _extensions: Extensions })._extensions['.js']!;
