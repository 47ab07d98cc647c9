import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Document, LineCounter, visit as yamlVisit } from 'yaml';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';
import { describeThrown } from '../core/describeThrown.js';
import { wallDeadline } from '../core/clock/RealClock.js';
import { findDuplicateKey } from '../core/jsonDuplicateKey.js';
import { jsonTooDeepAt, tooDeepText, valueTooDeep } from '../core/jsonNesting.js';
import { formatPath } from '../core/zodIssues.js';
import { installOutboundGuard } from '../faults/http/outboundGuard.js';
import { parsedAtBuild } from './parsedYaml.js';
import { jsHandler, keepOwnModulesNative } from './ownModulesNative.js';

/** The file kinds scenarios and configurations may be written in. */
export const DATA_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;
export const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;

/** Aliases one YAML file may expand; the yaml library's own guard, stated so the message can say it. */
const MAX_YAML_ALIASES = 100;

/** What a user's code threw, for a message: an Error's message, or the thrown value described. */
export function thrownText(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return thrown.message;
  } catch {
    // a Proxy whose traps throw: described below
  }
  return describeThrown(thrown);
}

/**
 * Runs `read` (validating a user's value, which may run their getters or proxy traps) and
 * turns anything it throws that is not already a harness error into a refusal naming `file`.
 * Only a module's value can run code: for a YAML or JSON file a throw is faultline's own bug,
 * and left to crash as one.
 */
export function readSafely<T>(file: string, code: FaultlineErrorCode, read: () => T): T {
  if (!(MODULE_EXTENSIONS as readonly string[]).includes(extname(file).toLowerCase())) return read();
  try {
    return read();
  } catch (error) {
    if (error instanceof FaultlineError) throw error;
    throw new FaultlineError(
      code,
      `${file}: reading the default export threw ${thrownText(error)} (expected plain data: no getter or proxy that throws)`,
    );
  }
}

/**
 * Reads a YAML, JSON or TypeScript/JavaScript file and returns its value (a module's
 * default export). TypeScript is loaded through tsx's API, so users need no build step.
 * Syntax errors name the file and the line; anything the file's own code throws is a
 * refusal naming the file, never a crash.
 */
export async function loadFile(file: string, code: FaultlineErrorCode): Promise<unknown> {
  const path = resolve(file);
  const ext = extname(path).toLowerCase();
  if ((MODULE_EXTENSIONS as readonly string[]).includes(ext)) {
    // The user's module may start sending at import (an SDK's trace exporter on a timer): never outside a trial.
    installOutboundGuard();
    const { value } = await loadModule(file, path, code);
    readSafely(file, code, () => {
      // An async function adopts a returned thenable: reading `then` here keeps a throwing trap inside the refusal.
      // A function too: resolving the promise loadFile returns reads the `then` of any object or function.
      if (
        (typeof value === 'object' || typeof value === 'function') &&
        value !== null &&
        typeof (value as { then?: unknown }).then === 'function'
      )
        throw new FaultlineError(
          code,
          `${file}: the default export is a promise; expected the object itself (export the value, not a promise of it)`,
        );
      if (valueTooDeep(value)) throw new FaultlineError(code, `${file}: the default export: ${tooDeepText()}`);
      refuseProtoKeys(value, file, code);
    });
    return value;
  }
  if (!(DATA_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new FaultlineError(
      code,
      `${file}: unsupported file type "${ext || '(none)'}"; expected one of ${[...DATA_EXTENSIONS, ...MODULE_EXTENSIONS].join(', ')}`,
    );
  }
  let text: string;
  try {
    // Synchronous: a few small files, and fs/promises' open, read and close cost ten times the CPU.
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new FaultlineError(
      FaultlineErrorCode.NotFound,
      `${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? thrownText(error)})`,
    );
  }
  // Editors on Windows save a byte-order mark; YAML skips it, so JSON does too.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const value =
    ext === '.json'
      ? parseJson(text, file, code)
      : ((await parsedAtBuild(text)) ?? (await parseYaml(text, file, code)));
  refuseProtoKeys(value, file, code);
  return value;
}

function parseJson(text: string, file: string, code: FaultlineErrorCode): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new FaultlineError(code, `${file}: not valid JSON: ${thrownText(error)}`);
  }
  const deep = jsonTooDeepAt(text);
  if (deep !== undefined) {
    const { line, col } = lineCol(text, deep);
    throw new FaultlineError(code, `${file}:${line}:${col}: ${tooDeepText()}`);
  }
  // JSON.parse keeps the last of two equal keys: the first (a fault rule, say) would vanish unseen.
  const dup = findDuplicateKey(text);
  if (dup) {
    throw new FaultlineError(
      code,
      `${file}:${dup.line}:${dup.col}: ${formatPath(dup.path)}: the key "${dup.key}" appears twice; expected each key once per object`,
    );
  }
  return value;
}

async function parseYaml(text: string, file: string, code: FaultlineErrorCode): Promise<unknown> {
  // Loaded on first use: the built-in files come parsed from the build (parsedYaml.ts), and a run of only those never needs the parser.
  const { LineCounter, parseDocument, visit } = await import('yaml');
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter });
  } catch (error) {
    // The parser recurses once per level of nesting.
    if (error instanceof RangeError) throw new FaultlineError(code, `${file}: ${tooDeepText()}`);
    throw error;
  }
  // Warnings count as errors: an unknown tag (`!!python/object`) or a `%YAML 1.3` directive
  // means the file says something this loader would silently read another way.
  const first = doc.errors[0] ?? doc.warnings[0];
  if (first) {
    const where = first.linePos?.[0] ? `:${first.linePos[0].line}:${first.linePos[0].col}` : '';
    // The parser reports its own stack overflow (one frame per level of nesting) as an error.
    if (first.message.includes('Maximum call stack size exceeded'))
      throw new FaultlineError(code, `${file}${where}: ${tooDeepText()}`);
    throw new FaultlineError(code, `${file}${where}: not valid YAML: ${first.message.split('\n')[0]}`);
  }
  const unresolved = unresolvedAlias(doc, lineCounter, visit);
  if (unresolved)
    throw new FaultlineError(
      code,
      `${file}:${unresolved.line}:${unresolved.col}: not valid YAML: the alias *${unresolved.name} names no anchor defined before it`,
    );
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) as unknown;
  } catch (error) {
    if (error instanceof RangeError) throw new FaultlineError(code, `${file}: ${tooDeepText()}`);
    // The library's guard against alias bombs ("billion laughs"), and any other expansion failure.
    throw new FaultlineError(
      code,
      `${file}: not valid YAML: ${thrownText(error)} (expected at most ${MAX_YAML_ALIASES} alias expansions)`,
    );
  }
  if (valueTooDeep(value)) throw new FaultlineError(code, `${file}: ${tooDeepText()}`);
  return value;
}

function lineCol(text: string, at: number): { line: number; col: number } {
  const before = text.slice(0, at).split('\n');
  return { line: before.length, col: before[before.length - 1]!.length + 1 };
}

/** Set once tsx's loaders for users' files are registered in this process. */
const TSX_REGISTERED = Symbol.for('faultline.tsxRegistered');

/**
 * Registers tsx's loaders for the whole process, once. Not `tsImport`: its private namespace
 * would load a second copy of faultline for every module a user file imports it from, so a
 * service's `ServiceError` would not be the runner's, and each file would cost a full reload.
 */
export async function ensureTypeScriptLoader(): Promise<void> {
  const flags = globalThis as { [TSX_REGISTERED]?: boolean };
  if (flags[TSX_REGISTERED]) return;
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  esm.register();
  // A .ts file outside a `"type": "module"` package is CommonJS, loaded through require; its
  // require of faultline itself stays Node's, so it gets the copy this process runs.
  const native = jsHandler();
  cjs.register();
  keepOwnModulesNative(native);
  flags[TSX_REGISTERED] = true;
}

function unresolvedAlias(
  doc: Document,
  lines: LineCounter,
  visit: typeof yamlVisit,
): { name: string; line: number; col: number } | undefined {
  let found: { name: string; line: number; col: number } | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) !== undefined) return undefined;
      found = { name: node.source, ...lines.linePos(node.range?.[0] ?? 0) };
      return visit.BREAK;
    },
  });
  return found;
}

const isPlainRecord = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A `__proto__` key is dropped by validation (or, copied naively, changes an object's
 * prototype): a goal state that names it would pass without checking anything. Refused
 * anywhere in a file, with its path.
 */
export function refuseProtoKeys(value: unknown, file: string, code: FaultlineErrorCode): void {
  const seen = new Set<object>();
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i]));
      return;
    }
    if (!isPlainRecord(v)) return;
    for (const key of Object.keys(v)) {
      if (key === '__proto__') {
        throw new FaultlineError(
          code,
          `${file}: ${formatPath([...path, key])}: the key "__proto__" is not allowed (it would be ` +
            `silently dropped); expected another key name`,
        );
      }
      walk(v[key], [...path, key]);
    }
  };
  walk(value, []);
}

/** How long a user's module may take to load (its top-level awaits included), unless `FAULTLINE_LOAD_TIMEOUT_MS` says otherwise. */
export const LOAD_TIMEOUT_MS = 30_000;

const loadTimeoutMs = (): number => {
  const set = Number(process.env['FAULTLINE_LOAD_TIMEOUT_MS']);
  return Number.isFinite(set) && set > 0 ? set : LOAD_TIMEOUT_MS;
};

/** What `process.exit` throws while a user's module loads: the module is refused, the CLI goes on. */
class ExitAtLoad extends Error {
  constructor(readonly exitCode: unknown) {
    super(`process.exit(${describeExitCode(exitCode)})`);
  }
}
const describeExitCode = (code: unknown): string =>
  code === undefined ? '' : typeof code === 'number' || typeof code === 'string' ? String(code) : typeof code;

let loading = 0;
let realExit: typeof process.exit | undefined;

/**
 * Imports a user's module with `process.exit` turned into a refusal (a module that exits at
 * import would otherwise end the CLI with no output and no report), and bounded in time: a
 * top-level await that can never settle (nothing left in the event loop) or that takes longer
 * than the bound is refused too, instead of a silent exit 13 or a hang.
 */
async function importUserModule(url: string): Promise<{ default?: unknown }> {
  if (loading++ === 0) {
    realExit = process.exit;
    process.exit = ((exitCode?: unknown) => {
      throw new ExitAtLoad(exitCode);
    }) as typeof process.exit;
  }
  const ms = loadTimeoutMs();
  let onEmptyLoop: (() => void) | undefined;
  let cancel: (() => void) | undefined;
  const stuck = new Promise<never>((_, reject) => {
    onEmptyLoop = () =>
      reject(
        new NeverLoads(
          'the module never finished loading: a top-level await waits on something that can never happen (nothing is left to run)',
        ),
      );
    process.once('beforeExit', onEmptyLoop);
    cancel = wallDeadline(ms, () =>
      reject(
        new NeverLoads(`the module did not finish loading within ${ms / 1000} s (a top-level await still pending)`),
      ),
    );
  });
  try {
    return (await Promise.race([import(url), stuck])) as { default?: unknown };
  } finally {
    cancel?.();
    if (onEmptyLoop) process.off('beforeExit', onEmptyLoop);
    if (--loading === 0 && realExit) process.exit = realExit;
  }
}

class NeverLoads extends Error {}

/**
 * Whether `error` says the file at `path` itself is missing. Node's message would name this
 * loader as the importer ("imported from …/loadFile.js"), which is faultline's path, not the
 * user's; a module the user's file imports is missing otherwise, and its message names that file.
 */
const isMissing = (error: unknown, path: string): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
  (error as { url?: unknown }).url === pathToFileURL(path).href;

/** Boxed: returning a user's value from an async function would read its `then`, outside any guard. */
async function loadModule(file: string, path: string, code: FaultlineErrorCode): Promise<{ value: unknown }> {
  let mod: { default?: unknown };
  try {
    await ensureTypeScriptLoader();
    mod = await importUserModule(pathToFileURL(path).href);
  } catch (error) {
    if (error instanceof ExitAtLoad)
      throw new FaultlineError(
        code,
        `${path}: the module called ${error.message} while loading; expected it to export a value (a module must not end the process)`,
      );
    if (error instanceof NeverLoads) throw new FaultlineError(code, `${path}: ${error.message}`);
    if (isMissing(error, path)) throw new FaultlineError(code, `${path}: no such file (expected a module to import)`);
    throw new FaultlineError(code, `${path}: the module failed to load: ${thrownText(error)}`);
  }
  const value = readSafely(file, code, () => esModuleDefault(mod.default));
  if (value === undefined)
    throw new FaultlineError(code, `${path}: expected a default export (export default defineScenario({ ... }))`);
  return { value };
}

/**
 * A module's default export from a fresh instance of it (`?<query>` on its URL, so its module-level
 * state is new; a CommonJS module's cache entry is set aside meanwhile, as the query alone would
 * find it). The modules it imports are the cached ones, as with any import.
 */
export async function importFresh(path: string, query: string): Promise<unknown> {
  await ensureTypeScriptLoader();
  const cache = createRequire(import.meta.url).cache;
  const kept = cache[path];
  delete cache[path];
  try {
    const mod = await importUserModule(`${pathToFileURL(path).href}?${query}`);
    return esModuleDefault(mod.default);
  } finally {
    if (kept) cache[path] = kept;
    else delete cache[path];
  }
}

// A .ts file outside a `"type": "module"` package is compiled to CommonJS: the namespace's
// `default` is then `module.exports`, flagged `__esModule`, and the real default export is inside it.
function esModuleDefault(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && (value as { __esModule?: unknown }).__esModule === true) {
    return (value as { default?: unknown }).default;
  }
  return value;
}
