/** Runs the real `bin/faultline.js` in a child process: the e2e suite's only way in (no mocks). */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/faultline.js', import.meta.url));

export interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Started {
  readonly child: ChildProcess;
  readonly done: Promise<Finished>;
  /** Resolves once stderr holds a line matching `pattern`. */
  readonly stderrLine: (pattern: RegExp) => Promise<string>;
}

// CI may be set where the suite runs; clear what changes the CLI's output so every run sees the same.
const QUIET_ENV = { NO_COLOR: '1', FORCE_COLOR: '', GITHUB_STEP_SUMMARY: '', CI: '' };

export interface StartOptions {
  readonly cwd: string;
  readonly env?: Record<string, string>;
  /** Run as another user (tests of unreadable folders run as one when the suite runs as root). */
  readonly uid?: number;
  readonly gid?: number;
  /** In a process group of its own, as a terminal starts a command: `process.kill(-pid, 'SIGINT')` is then a Ctrl-C. */
  readonly detached?: boolean;
}

export function start(args: readonly string[], options: StartOptions): Started {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...QUIET_ENV, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid !== undefined && { uid: options.uid }),
    ...(options.gid !== undefined && { gid: options.gid }),
    ...(options.detached === true && { detached: true }),
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    for (const w of [...waiters]) {
      const line = stderr.split('\n').find((l) => w.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const done = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  const stderrLine = (pattern: RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      waiters.push({ pattern, resolve });
      void done.then(() => reject(new Error(`no stderr line matched ${pattern}; stderr:\n${stderr}`)));
    });
  return { child, done, stderrLine };
}

/** Runs `faultline …args` to the end. */
export const faultline = (args: readonly string[], options: StartOptions): Promise<Finished> =>
  start(args, options).done;

/** A fresh folder under the OS temp dir; `cleanup` removes it. */
export async function tempDir(prefix: string): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `faultline-${prefix}-`));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}
