import { EventEmitter } from 'node:events';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

/**
 * The CLI's `main` from src/ (through vitest, no dist/ needed), its output captured and an empty
 * environment: for fuzz cases that only read what the CLI answers, without a child per case.
 * `io.exit` is not expected (it throws); with `cwd`, the process works there for the call.
 */
export async function srcMain(argv: string[], cwd?: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = {
    stdout: { write: (s) => ((out += s), true) },
    stderr: { write: (s) => ((err += s), true) },
    env: {},
    signals: new EventEmitter(),
    exit: (code) => {
      throw new Error(`unexpected exit ${code}`);
    },
  };
  const before = process.cwd();
  if (cwd !== undefined) process.chdir(cwd);
  try {
    return { code: await main(argv, io), out, err };
  } finally {
    process.chdir(before);
  }
}
