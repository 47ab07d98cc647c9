import { stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import { CONFIG_DIR, LIBRARY_DIR, filesIn, filesInFolder } from '../library.js';
import { loadFile, readSafely } from '../loadFile.js';
import { parseContentionConfig, type ContentionConfig } from './ContentionConfig.js';
import { parseContentionScenario, type ContentionScenario } from './ContentionScenario.js';

/** The built-in contention scenarios and the retry configurations compared under them. */
export const CONTENTION_SCENARIO_DIR = join(LIBRARY_DIR, 'contention');
export const CONTENTION_CONFIG_DIR = join(CONFIG_DIR, 'contention');

const nameOf = (file: string): string => basename(file, extname(file));

/**
 * Files for `refs`: a bare word is a built-in name, looked up in each of `dirs` in turn;
 * anything else is a file or a folder. No refs: every file of the first folder.
 */
async function resolve(refs: readonly string[], dirs: readonly string[], what: string): Promise<string[]> {
  if (refs.length === 0) return filesIn(dirs[0]!);
  const builtins = (await Promise.all(dirs.map((d) => filesIn(d)))).flat();
  const files: string[] = [];
  for (const ref of refs) {
    const bare = !/[/\\]/.test(ref) && extname(ref) === '';
    const builtin = bare ? builtins.find((f) => nameOf(f) === ref) : undefined;
    const info = builtin ? undefined : await stat(ref).catch(() => undefined);
    if (builtin) files.push(builtin);
    else if (info?.isDirectory()) files.push(...(await filesInFolder(ref, what)));
    else if (info?.isFile()) files.push(ref);
    else throw new FaultlineError(FaultlineErrorCode.NotFound, `no ${what} file or built-in ${what} named "${ref}" (built-in: ${[...new Set(builtins.map(nameOf))].join(', ')})`);
  }
  return files;
}

function assertUnique(items: readonly { name: string }[], files: readonly string[], what: string, code: FaultlineErrorCode): void {
  const seen = new Map<string, string>();
  items.forEach(({ name }, i) => {
    const before = seen.get(name);
    if (before !== undefined) throw new FaultlineError(code, `two ${what}s are named "${name}": ${before} and ${files[i]}`);
    seen.set(name, files[i]!);
  });
}

/** Contention scenarios from files, folders or built-in names; all built-in ones when `refs` is empty. */
export async function loadContentionScenarios(refs: readonly string[] = []): Promise<ContentionScenario[]> {
  const files = await resolve(refs, [CONTENTION_SCENARIO_DIR], 'contention scenario');
  const out: ContentionScenario[] = [];
  for (const file of files) {
    const value = await loadFile(file, FaultlineErrorCode.ScenarioInvalid);
    out.push(readSafely(file, FaultlineErrorCode.ScenarioInvalid, () => parseContentionScenario(value, file)));
  }
  assertUnique(out, files, 'contention scenario', FaultlineErrorCode.ScenarioInvalid);
  return out;
}

/**
 * Configurations from files, folders or built-in names (the contention ones first, then the
 * top-level ones such as `rulebook`); every built-in contention configuration when `refs` is empty.
 */
export async function loadContentionConfigs(refs: readonly string[] = []): Promise<ContentionConfig[]> {
  const files = await resolve(refs, [CONTENTION_CONFIG_DIR, CONFIG_DIR], 'configuration');
  const out: ContentionConfig[] = [];
  for (const file of files) {
    const value = await loadFile(file, FaultlineErrorCode.ConfigInvalid);
    out.push(readSafely(file, FaultlineErrorCode.ConfigInvalid, () => parseContentionConfig(value, file)));
  }
  assertUnique(out, files, 'configuration', FaultlineErrorCode.ConfigInvalid);
  return out;
}
