import { spawn } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RealClock } from '../../core/clock/RealClock.js';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import { isBareName } from '../../scenario/expandRef.js';
import { CROWD_DIR, filesIn, LIBRARY_DIR, resolveRefs } from '../../scenario/library.js';
import { ExitCode } from '../exitCodes.js';
import { listenForInterrupt } from '../interrupt.js';
import type { Io } from '../io.js';
import { moduleGraph } from './moduleGraph.js';
import { WATCH_RERUN_ENV } from './watchEnv.js';

// Editors save in bursts (write, rename, chmod): changes this close together make one rerun.
const SETTLE_MS = 150;

const BIN = fileURLToPath(new URL('../../../bin/faultline.js', import.meta.url));

export interface WatchRequest {
  /** The command line as typed (without `node` and the script): each run repeats it. */
  readonly argv: readonly string[];
  /** The scenario refs of the run (typed, or from the config file): files and folders are watched. */
  readonly scenarios: readonly string[];
  /** faultline.config.ts, when the run reads one: its defaults and agents reach every scenario, so it and what it names are watched too. */
  readonly configFile?: string;
}

const shown = (path: string): string => relative(process.cwd(), path) || '.';

/** The scenario files the refs name now (a folder's files may come and go), and the folders to watch for new ones. */
async function scenarioFiles(refs: readonly string[]): Promise<{ files: string[]; folders: string[] }> {
  const files: string[] = [];
  const folders: string[] = [];
  for (const ref of refs) {
    if (isBareName(ref) && (await stat(ref).catch(() => undefined)) === undefined) continue; // a built-in: it does not change
    const info = await stat(ref).catch(() => undefined);
    if (info?.isDirectory()) {
      folders.push(resolve(ref));
      files.push(...(await filesIn(resolve(ref))));
    } else files.push(resolve(ref));
  }
  return { files: [...new Set(files)], folders };
}

/** One run of the command line, in a process of its own; resolves to its exit code. */
function spawnRun(
  argv: readonly string[],
  only: readonly string[] | undefined,
  stop: AbortSignal,
  io: Io,
): Promise<number> {
  return new Promise((done) => {
    // In a process group of its own: a terminal's Ctrl-C goes to the foreground group, and a
    // run that got it from the terminal and again from us would take the second as "quit at
    // once, without reports". The watcher forwards exactly one.
    const child = spawn(process.execPath, [BIN, ...argv], {
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...io.env, [WATCH_RERUN_ENV]: only === undefined ? '' : JSON.stringify(only) },
    });
    // The run stops as a run does on Ctrl-C: the trial in progress finishes, the partial reports are written.
    const forward = (): void => void child.kill('SIGINT');
    stop.addEventListener('abort', forward, { once: true });
    // A second Ctrl-C ends the watcher at once: the run, outside its group, is told again, so it quits too.
    const orphaned = (): void => void child.kill('SIGINT');
    process.once('exit', orphaned);
    child.on('error', () => done(ExitCode.Crash));
    child.on('close', (code) => {
      stop.removeEventListener('abort', forward);
      process.off('exit', orphaned);
      done(code ?? ExitCode.Crash);
    });
  });
}

/** Watches exactly these folders (closing the others in `watchers`); `onChange` hears each file named in an event. */
function watchFoldersOf(
  watchers: Map<string, FSWatcher>,
  folders: ReadonlySet<string>,
  onChange: (file: string) => void,
): void {
  // Each watched file's folder, watched as a folder: editors that save by renaming replace the file a file watcher holds.
  for (const [dir, w] of watchers) if (!folders.has(dir)) (w.close(), watchers.delete(dir));
  for (const dir of folders) {
    if (watchers.has(dir)) continue;
    try {
      const w = watch(dir, (_event, name) => {
        if (name === null) return;
        onChange(join(dir, name.toString()));
      });
      w.on('error', () => undefined);
      watchers.set(dir, w);
    } catch {
      // a folder gone since the graph was read: the next graph leaves it out
    }
  }
}

/** What is watched: each scenario file's module graph, the folders they sit in, and the changes not yet read. */
class WatchedFiles {
  #graph = new Map<string, Set<string>>();
  #folders: string[] = [];
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #pending = new Set<string>();
  #wake: (() => void) | undefined;
  readonly #clock = new RealClock();

  constructor(
    private readonly request: WatchRequest,
    private readonly stop: AbortSignal,
    private readonly io: Io,
  ) {}

  /** Ends a wait for changes (Ctrl-C). */
  wake(): void {
    this.#wake?.();
  }

  /** The scenario files to run again for `changed`: those whose graph holds a changed file, and new ones. */
  async affected(changed: ReadonlySet<string>): Promise<string[]> {
    const now = await scenarioFiles(this.request.scenarios);
    return now.files.filter((f) => !this.#graph.has(f) || [...this.#graph.get(f)!].some((d) => changed.has(d)));
  }

  /** Reads every scenario file's module graph again and watches the folders it spans. */
  async rebuild(): Promise<void> {
    const { request, io } = this;
    const now = await scenarioFiles(request.scenarios);
    this.#folders = now.folders;
    const project = request.configFile === undefined ? new Set<string>() : await moduleGraph(request.configFile);
    this.#graph = new Map(
      await Promise.all(now.files.map(async (f) => [f, new Set([...(await moduleGraph(f)), ...project])] as const)),
    );
    const files = new Set([...this.#graph.values()].flatMap((deps) => [...deps]));
    watchFoldersOf(this.#watchers, new Set([...[...files].map((f) => dirname(f)), ...this.#folders]), (file) => {
      this.#pending.add(file);
      this.#wake?.();
    });
    const graphSize = this.#graph.size;
    io.stderr.write(
      `\nfaultline: watching ${graphSize === 1 ? 'one scenario file' : `${graphSize} scenario files`} and ` +
        `${files.size - graphSize} ${files.size - graphSize === 1 ? 'file' : 'files'} they import or name; Ctrl-C to stop\n`,
    );
  }

  /** Waits for the next burst of changes; undefined once Ctrl-C came. */
  async nextChanges(): Promise<Set<string> | undefined> {
    for (;;) {
      if (this.stop.aborted) return undefined;
      if (this.#pending.size === 0) {
        await new Promise<void>((r) => (this.#wake = r));
        this.#wake = undefined;
        continue;
      }
      await this.#clock.sleep(SETTLE_MS);
      const changed = new Set(this.#pending);
      this.#pending.clear();
      // Only what a scenario reaches, or a new file in a watched folder, counts (reports written nearby do not).
      const known = new Set([...this.#graph.values()].flatMap((g) => [...g]));
      const relevant = new Set([...changed].filter((c) => known.has(c) || this.#folders.includes(dirname(c))));
      if (relevant.size > 0) return relevant;
    }
  }

  close(): void {
    for (const w of this.#watchers.values()) w.close();
  }
}

/**
 * `--watch`: runs the command once, then again for the scenarios whose file, or a file it
 * imports or names (agent and service modules, their own imports), changed, until Ctrl-C.
 * Each run is a fresh `faultline` process, so every changed module is loaded anew (Node caches
 * ES modules for the life of a process); it prints what it prints without `--watch`.
 */
export async function executeWatch(request: WatchRequest, io: Io): Promise<ExitCode> {
  // A ref that names nothing is bad input now and after any edit: refused (exit 2), not watched forever.
  await resolveRefs(request.scenarios, [LIBRARY_DIR, CROWD_DIR], 'scenario');
  const initial = await scenarioFiles(request.scenarios);
  if (initial.files.length === 0) {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      '--watch: no scenario file to watch (built-in scenarios do not change); name your scenario files ' +
        'or folders, or list them in faultline.config.ts',
    );
  }
  const interrupt = listenForInterrupt(io);
  const stop = interrupt.signal;
  const watched = new WatchedFiles(request, stop, io);
  const runOnce = (only: readonly string[] | undefined): Promise<number> => spawnRun(request.argv, only, stop, io);
  const onStop = (): void => watched.wake();
  stop.addEventListener('abort', onStop, { once: true });
  try {
    await runOnce(undefined);
    if (!stop.aborted) await watched.rebuild();
    while (!stop.aborted) {
      const changed = await watched.nextChanges();
      if (changed === undefined) break;
      const rerun = await watched.affected(changed);
      if (rerun.length === 0) continue;
      io.stderr.write(
        `\nfaultline: changed: ${[...changed].map(shown).join(', ')}; rerunning ${rerun.map(shown).join(', ')}\n`,
      );
      await runOnce(rerun);
      if (!stop.aborted) await watched.rebuild();
    }
    // Only Ctrl-C (or SIGTERM, SIGHUP) ends watching: the exit code says which (130, 143, 129).
    return interrupt.exitCode();
  } finally {
    stop.removeEventListener('abort', onStop);
    watched.close();
    interrupt.dispose();
  }
}
