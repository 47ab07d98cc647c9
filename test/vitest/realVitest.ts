/** The real vitest binary, run in a user's project, and what its output says of one test. */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { userProject } from '../cli/userProject.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const VITEST = join(REPO, 'node_modules', 'vitest', 'vitest.mjs');

/**
 * `userProject` whose `node_modules/faultline` is laid out as `npm install` leaves it: a folder of
 * its own holding the package.json and the built dist/ (hard links to this checkout's), the other
 * shipped folders and the dependencies linked. Linked whole to the checkout instead, its files'
 * real paths lie outside any node_modules, so vite transformed all of dist/ (about 330 modules)
 * on every vitest start: 3.5 s of CPU per start of the history test, 1.2 s installed like this
 * (docs/testing.md, seventh round). A user's installed faultline is loaded by Node, as here.
 */
export async function installedUserProject(
  prefix: string,
  files: Readonly<Record<string, string>>,
  packages: readonly string[] = [],
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const project = await userProject(prefix, files, packages);
  const faultline = join(project.path, 'node_modules', 'faultline');
  await rm(faultline);
  await mkdir(faultline);
  await cp(join(REPO, 'package.json'), join(faultline, 'package.json'));
  // Hard links where `cp -al` exists (GNU cp, same file system); a plain copy elsewhere.
  await promisify(execFile)('cp', ['-al', join(REPO, 'dist'), join(faultline, 'dist')]).catch(async () => {
    await rm(join(faultline, 'dist'), { recursive: true, force: true });
    await cp(join(REPO, 'dist'), join(faultline, 'dist'), { recursive: true });
  });
  // faultline's own dependencies resolve from its node_modules, as if npm had nested them there.
  for (const name of ['bin', 'scenarios', 'docs', 'node_modules'])
    await symlink(join(REPO, name), join(faultline, name), 'dir');
  return project;
}

/** `vitest run` in `cwd`, without colour, whatever CI variables the suite runs under. */
export function vitest(cwd: string, args: readonly string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', ...args], {
      cwd,
      env: {
        ...process.env,
        NO_COLOR: '1',
        FORCE_COLOR: '',
        CI: '',
        GITHUB_ACTIONS: '',
        VITEST: '',
        VITEST_MODE: '',
        VITEST_POOL_ID: '',
        VITEST_WORKER_ID: '',
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The report of one failed test in vitest's output: from its `FAIL` line to the next separator. */
export function failure(out: string, file: string, test: string): string {
  const start = out.indexOf(` FAIL  ${file} > ${test}\n`);
  if (start < 0) throw new Error(`no failure of "${test}" in:\n${out}`);
  const end = out.indexOf('⎯⎯⎯', start);
  return out.slice(start, end < 0 ? undefined : end);
}

/** The line of `needle` in a file's text: where vitest must point. */
export const lineOf = (text: string, needle: string): number =>
  text.split('\n').findIndex((l) => l.includes(needle)) + 1;
