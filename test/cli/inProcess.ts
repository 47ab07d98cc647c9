/**
 * Runs the CLI in this test process, through the entry `bin/faultline.js` calls (`main` of the
 * built dist/cli/main.js, the same compiled code the binary runs), for the variations of a path
 * whose one end-to-end test goes through the real binary (`./faultline.ts`). It spares each case
 * a Node start and the CLI's module loading (about 1 to 3 s each on a busy 2-core machine).
 *
 * dist/ is imported natively, not through vitest's module runner: the user's modules the CLI
 * imports (through tsx, which the CLI registers) and `faultline` as they import it (this
 * checkout, through the project's node_modules) then resolve to the very same dist/ modules, as
 * they do under the binary.
 *
 * What the binary does and this cannot: signals go to a stand-in (a test may emit one on it), the CLI's
 * `process.exit` for a second Ctrl-C throws, and the process (its cwd, its environment, its
 * module cache) is shared with the file's other cases. So cases run one at a time (`run`
 * queues them), the working directory and the variables the case sets are restored after each,
 * and a case that tests the process itself (signals, exit codes of a dying process, heap
 * limits, a module that pollutes its host) stays on the binary.
 *
 * A case's folder may be removed when its case ends: esbuild (tsx's compiler, once the CLI has
 * registered tsx in this process) starts its service in the working directory it was loaded in,
 * and this module loads it first, from the system's temp folder (see below).
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Finished, StartOptions } from './faultline.js';

const MAIN = pathToFileURL(fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))).href;
const LOAD_FILE = new URL('../../dist/scenario/loadFile.js', import.meta.url).href;

type Main = (argv: readonly string[], io: unknown) => Promise<number>;

// Node's import(), not vitest's: its runner would load dist/ as a second copy of faultline's modules.
const nativeImport = createRequire(import.meta.url)('./nativeImport.cjs') as (url: string) => Promise<{ main: Main }>;

// Registers tsx's loaders for this process with the CLI's own function (the built loadFile's
// ensureTypeScriptLoader, which sets the flag the CLI then finds), once, before any case moves into
// its folder. esbuild, tsx's compiler, starts its service in the working directory it was loaded in
// (read once), in the loader thread the registration starts: registered by the CLI during a case,
// that was the case's folder, and once that folder was removed a later case's compile of a file not
// in tsx's cache failed with `spawn …/esbuild ENOENT` (exit 2; sdkAgents.test.ts whenever /tmp/tsx-*
// was cold). And tsx reads the tsconfig.json of that folder: the checkout's maps `faultline` to src/
// (for the repository's own examples), which gave the users' modules here faultline's sources, not
// the dist/ the binary gives them. The system's temp folder has no tsconfig and outlives every case.
let registered: Promise<void> | undefined;
const registerTypeScript = (): Promise<void> => (registered ??= register());
async function register(): Promise<void> {
  const { ensureTypeScriptLoader } = (await nativeImport(LOAD_FILE)) as unknown as {
    ensureTypeScriptLoader: () => Promise<void>;
  };
  const checkout = process.cwd();
  process.chdir(tmpdir());
  try {
    await ensureTypeScriptLoader();
  } finally {
    process.chdir(checkout);
  }
}

// As `./faultline.ts` clears them for the binary: CI may be set where the suite runs.
const QUIET_ENV = { NO_COLOR: '1', FORCE_COLOR: '', GITHUB_STEP_SUMMARY: '', CI: '' };

class Buffered {
  text = '';
  readonly isTTY = false;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

class ExitCalled extends Error {
  constructor(readonly code: number) {
    super(`the CLI called io.exit(${code})`);
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * `signals`: where the CLI listens for stop signals: a case may pass its own and emit one (`emit('SIGTERM')`).
 * `processStderr`: also take into the case's stderr what is written to this process's own stderr
 * while it runs. A worker's host process relays its stderr there (under the binary, that is the
 * CLI's stderr), so a case that checks what reaches stderr from a worker (V8's out-of-memory
 * report, say) can fail in process too.
 */
type InProcessOptions = Pick<StartOptions, 'cwd' | 'env'> & {
  readonly signals?: EventEmitter;
  readonly processStderr?: boolean;
};

async function once(args: readonly string[], options: InProcessOptions): Promise<Finished> {
  const { main } = await nativeImport(MAIN);
  await registerTypeScript();
  const stdout = new Buffered();
  const stderr = new Buffered();
  const set: Record<string, string> = { ...QUIET_ENV, ...options.env };
  const saved = Object.fromEntries(Object.keys(set).map((k) => [k, process.env[k]]));
  const cwd = process.cwd();
  const stderrWrite = process.stderr.write;
  Object.assign(process.env, set);
  process.chdir(options.cwd);
  if (options.processStderr === true)
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const done = rest.find((a) => typeof a === 'function') as (() => void) | undefined;
      if (done) process.nextTick(done);
      return stderr.write(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    }) as typeof stderrWrite;
  try {
    const io = {
      stdout,
      stderr,
      env: { ...process.env },
      signals: options.signals ?? new EventEmitter(),
      pendingSignals: [],
      exit: (code: number) => {
        throw new ExitCalled(code);
      },
    };
    const code = await main([...args], io);
    return { code, signal: null, stdout: stdout.text, stderr: stderr.text };
  } finally {
    if (options.processStderr === true) process.stderr.write = stderrWrite;
    process.chdir(cwd);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** `faultline …args` run to the end in this process; its exit code and output, as `faultline()` gives them. */
export function inProcess(args: readonly string[], options: InProcessOptions): Promise<Finished> {
  const result = queue.then(() => once(args, options));
  queue = result.catch(() => undefined);
  return result;
}
