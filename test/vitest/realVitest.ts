/** The real vitest binary, run in a user's project, and what its output says of one test. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const VITEST = join(REPO, 'node_modules', 'vitest', 'vitest.mjs');

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
