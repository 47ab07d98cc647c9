import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';

// Apart from loadConfigFile.ts: every run looks for the file, and only a run that finds one
// pays for loading the loader (the config's schemas, tinyglobby for its patterns).

/** Looked for in the working folder, in this order, when `--config-file` is not given. */
export const CONFIG_FILE_NAMES = [
  'faultline.config.ts',
  'faultline.config.mts',
  'faultline.config.js',
  'faultline.config.mjs',
] as const;

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
    if (!info.isFile())
      throw invalidConfig(`--config-file ${explicit}`, [`${kindOf(info)}, not a file; expected ${EXPECTED}`]);
    return explicit;
  }
  for (const name of CONFIG_FILE_NAMES) if (await exists(join(cwd, name))) return name;
  return undefined;
}

/** The error of a config file that is not one, each line a problem. */
export const invalidConfig = (file: string, lines: readonly string[]): FaultlineError =>
  new FaultlineError(
    FaultlineErrorCode.ConfigInvalid,
    `${file}: invalid faultline config:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
    { source: file, issues: lines },
  );
