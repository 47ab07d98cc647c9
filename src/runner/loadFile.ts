import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'yaml';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';

/** The file kinds scenarios and configurations may be written in. */
export const DATA_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;
export const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;

/**
 * Reads a YAML, JSON or TypeScript/JavaScript file and returns its value (a module's
 * default export). TypeScript is loaded through tsx's API, so users need no build step.
 * Syntax errors name the file and the line.
 */
export async function loadFile(file: string, code: FaultlineErrorCode): Promise<unknown> {
  const path = resolve(file);
  const ext = extname(path).toLowerCase();
  if ((MODULE_EXTENSIONS as readonly string[]).includes(ext)) return loadModule(path, code);
  if (!(DATA_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new FaultlineError(code, `${file}: unsupported file type "${ext || '(none)'}"; expected one of ${[...DATA_EXTENSIONS, ...MODULE_EXTENSIONS].join(', ')}`);
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new FaultlineError(FaultlineErrorCode.NotFound, `${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (ext === '.json') {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new FaultlineError(code, `${file}: not valid JSON: ${(error as Error).message}`);
    }
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const where = first.linePos?.[0] ? `:${first.linePos[0].line}:${first.linePos[0].col}` : '';
    throw new FaultlineError(code, `${file}${where}: not valid YAML: ${first.message.split('\n')[0]}`);
  }
  return doc.toJS() as unknown;
}

/** Set once tsx's loaders for users' files are registered in this process. */
const TSX_REGISTERED = Symbol.for('faultline.tsxRegistered');

/**
 * Registers tsx's loaders for the whole process, once. Not `tsImport`: its private namespace
 * would load a second copy of faultline for every module a user file imports it from, so a
 * service's `ServiceError` would not be the runner's, and each file would cost a full reload.
 */
async function ensureTypeScriptLoader(): Promise<void> {
  const flags = globalThis as { [TSX_REGISTERED]?: boolean };
  if (flags[TSX_REGISTERED]) return;
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  esm.register();
  // A .ts file outside a `"type": "module"` package is CommonJS, loaded through require.
  cjs.register();
  flags[TSX_REGISTERED] = true;
}

async function loadModule(path: string, code: FaultlineErrorCode): Promise<unknown> {
  let mod: { default?: unknown };
  try {
    await ensureTypeScriptLoader();
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new FaultlineError(code, `${path}: the module failed to load: ${(error as Error).message}`);
  }
  const value = esModuleDefault(mod.default);
  if (value === undefined) throw new FaultlineError(code, `${path}: expected a default export (export default defineScenario({ ... }))`);
  return value;
}

// A .ts file outside a `"type": "module"` package is compiled to CommonJS: the namespace's
// `default` is then `module.exports`, flagged `__esModule`, and the real default export is inside it.
function esModuleDefault(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && (value as { __esModule?: unknown }).__esModule === true) {
    return (value as { default?: unknown }).default;
  }
  return value;
}
