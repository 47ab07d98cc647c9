import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { expandRef } from '../scenario/expandRef.js';
import { loadFile } from '../scenario/loadFile.js';
import { formatIssues } from '../core/zodIssues.js';
import type { z } from 'zod';
import { FaultlineConfigSchema } from './defineConfig.js';

/** Looked for in the working folder, in this order, when `--config-file` is not given. */
export const CONFIG_FILE_NAMES = [
  'faultline.config.ts',
  'faultline.config.mts',
  'faultline.config.js',
  'faultline.config.mjs',
] as const;

/** A config file, checked, with its paths made absolute (they are written relative to the file). */
export interface LoadedConfigFile {
  /** The file as the user named it (or as found), for messages. */
  readonly file: string;
  readonly config: z.output<typeof FaultlineConfigSchema>;
  /** Each resolved scenario and configuration ref → the key and entry it came from (`scenarios[1] (bad.yaml)`). */
  readonly origins: ReadonlyMap<string, string>;
}

const EXPECTED =
  `a ${CONFIG_FILE_NAMES.map((n) => n.slice('faultline.config'.length)).join(', ')} file ` +
  `whose default export is defineConfig({ … })`;

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

const exists = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isFile() === true;

/** The config file to use: `explicit` (which must exist), else the first of `CONFIG_FILE_NAMES` in `cwd`, else none. */
export async function findConfigFile(
  explicit: string | undefined,
  cwd: string = process.cwd(),
): Promise<string | undefined> {
  if (explicit !== undefined) {
    const info = await stat(resolve(cwd, explicit)).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) {
      if (info.code === 'ENOENT' || info.code === 'ENOTDIR')
        throw new FaultlineError(FaultlineErrorCode.NotFound, `--config-file ${explicit}: no such file`);
      throw new FaultlineError(
        FaultlineErrorCode.ConfigInvalid,
        `--config-file ${explicit}: cannot read the file (${info.code ?? info.message})`,
      );
    }
    // It exists: say what it is instead of "no such file" (`/dev/null`, a fifo, a folder).
    if (!info.isFile()) throw fail(`--config-file ${explicit}`, [`${kindOf(info)}, not a file; expected ${EXPECTED}`]);
    return explicit;
  }
  for (const name of CONFIG_FILE_NAMES) if (await exists(join(cwd, name))) return name;
  return undefined;
}

const fail = (file: string, lines: readonly string[]): FaultlineError =>
  new FaultlineError(
    FaultlineErrorCode.ConfigInvalid,
    `${file}: invalid faultline config:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
    { source: file, issues: lines },
  );

async function resolveRefs(
  refs: readonly string[] | undefined,
  dir: string,
  key: string,
  file: string,
  origins: Map<string, string>,
): Promise<string[] | undefined> {
  if (refs === undefined) return undefined;
  const out: string[] = [];
  for (const [i, ref] of refs.entries()) {
    const files = await expandRef(ref, dir);
    if (files.length === 0)
      throw fail(file, [
        `${key}[${i}]: the pattern "${ref}" matches no file (looked in ${relative(process.cwd(), dir) || '.'})`,
      ]);
    for (const f of files) if (!origins.has(f)) origins.set(f, `${key}[${i}] (${ref})`);
    out.push(...files);
  }
  return out;
}

/** Loads `file` (TypeScript through tsx, or JavaScript), checks its default export and resolves its paths. */
export async function loadConfigFile(file: string): Promise<LoadedConfigFile> {
  const value = await loadFile(file, FaultlineErrorCode.ConfigInvalid);
  const parsed = FaultlineConfigSchema.safeParse(value);
  if (!parsed.success) throw fail(file, formatIssues(parsed.error.issues));
  const dir = dirname(resolve(file));
  const { scenarios, retryConfigs, outDir, ...rest } = parsed.data;
  const origins = new Map<string, string>();
  const resolvedScenarios = await resolveRefs(scenarios, dir, 'scenarios', file, origins);
  const resolvedConfigs = await resolveRefs(retryConfigs, dir, 'retryConfigs', file, origins);
  return {
    file,
    origins,
    config: {
      ...rest,
      ...(resolvedScenarios && { scenarios: resolvedScenarios }),
      ...(resolvedConfigs && { retryConfigs: resolvedConfigs }),
      ...(outDir !== undefined && { outDir: relative(process.cwd(), resolve(dir, outDir)) || '.' }),
    },
  };
}
