/** A user's project in a temp folder outside the repo, with this checkout installed as its `faultline` dependency. */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './faultline.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Writes `files` (path → text) into a fresh project whose `node_modules/faultline` is this
 * checkout, and whose `node_modules/<name>` for each of `packages` is the checkout's installed copy
 * (the user's own dependencies, such as an SDK).
 */
export async function userProject(
  prefix: string,
  files: Readonly<Record<string, string>>,
  packages: readonly string[] = [],
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const dir = await tempDir(prefix);
  await mkdir(join(dir.path, 'node_modules'), { recursive: true });
  await symlink(REPO, join(dir.path, 'node_modules', 'faultline'), 'dir');
  for (const name of packages) {
    await mkdir(dirname(join(dir.path, 'node_modules', name)), { recursive: true });
    await symlink(join(REPO, 'node_modules', name), join(dir.path, 'node_modules', name), 'dir');
  }
  await writeFile(
    join(dir.path, 'package.json'),
    `${JSON.stringify({ name: `${prefix}-project`, private: true, type: 'module' }, null, 2)}\n`,
  );
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir.path, path)), { recursive: true });
    await writeFile(join(dir.path, path), text);
  }
  return dir;
}
