import { once } from 'node:events';
import { closeSync, mkdirSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { Worker } from 'node:worker_threads';
import { wallTicker } from '../core/clock/RealClock.js';
import { runsUserCode } from '../agent/kinds/runsUserCode.js';
import { colorEnabled } from '../report/console.js';
import type { WallClock } from '../report/json.js';
import { isConsoleReporter, renderReportsNow, type ReporterName, type WriteReportsOptions } from '../report/write.js';
import { isolationLimits } from '../runner/pool/runOnWorkers.js';
import type { Scenario } from '../scenario/scenario.js';
import type { Gate } from '../stats/gates.js';
import type { Io } from './io.js';
import { replayCommand } from '../runner/replay.js';
import type { HungRun } from '../runner/run.js';
import { ExitCode } from './exitCodes.js';

/** The global the watchdog's call reaches in the main thread (through the inspector, in the middle of the agent's code). */
const KEY = 'faultline.inProcessWatchdog';
/** How often the main thread says it is alive, while its event loop turns. */
const BEAT_MS = 100;

/** What the main thread hands the watchdog to finish the run with: the files to write, what to print, the exit code. */
interface Ending {
  readonly files: readonly { readonly path: string; readonly text: string }[];
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

// The watchdog thread: plain JavaScript (nothing of faultline's to load). It counts the main thread's beats while a trial
// runs in it; once none came for the bound, it has the main thread end the run through the inspector, which runs code in
// the middle of a synchronous loop (and only there: its answers would wait on the main thread's event loop). If that
// cannot end it, the process ends as a crash.
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { Session } = require('node:inspector');
const fs = require('node:fs');
const { shared, boundMs, key } = workerData;
const period = Math.max(10, Math.min(250, Math.floor(boundMs / 4)));
function watch() {
  let last = Atomics.load(shared, 0);
  let still = 0;
  for (;;) {
    if (Atomics.wait(shared, 2, 0, period) !== 'timed-out') return undefined;
    const beats = Atomics.load(shared, 0);
    if (beats !== last || Atomics.load(shared, 1) === 0) { last = beats; still = 0; continue; }
    if (++still * period >= boundMs) return still * period;
  }
}
const stalled = watch();
if (stalled !== undefined) {
  const session = new Session();
  session.connectToMainThread();
  session.post('Runtime.evaluate', { expression: 'globalThis[Symbol.for(' + JSON.stringify(key) + ')](' + stalled + ')' });
  Atomics.wait(shared, 2, 0, 10000);
  fs.writeSync(2, 'faultline: a trial hung in this process (--workers 0), and the run could not write its reports\\n');
  fs.closeSync(2);
  session.post('Runtime.evaluate', { expression: 'process.reallyExit(3)' });
}`;

export interface InProcessWatchdog {
  /** `RunOptions.hereWatch`: armed while trials run in this process. */
  readonly hereWatch: (hung: HungRun | undefined) => void;
  /** Stops watching (the run is over, and its reports are the usual ones). */
  dispose(): void;
}

/**
 * `--workers 0`: the agents share the CLI's thread, so one that never gives it back (a
 * synchronous loop) would hang the run for ever. A watchdog thread is fed a beat while the main
 * thread's event loop turns; when a trial holds it past `boundMs`, the run so far is judged with
 * that trial hung, its reports written and its replay printed, and the process ends with exit 1
 * (a trial failed). A heap exhausted still ends the process at once, as V8 offers no last word:
 * the binary runs such a run in a copy of itself and writes the reports when it dies (`superviseRun`).
 */
export async function startInProcessWatchdog(options: {
  readonly boundMs: number;
  /** What the reports need, taken when the trial hung. */
  readonly reports: () => WriteReportsOptions;
}): Promise<InProcessWatchdog> {
  // [beats, armed, stopped]
  const shared = new Int32Array(new SharedArrayBuffer(12));
  const stopBeats = wallTicker(BEAT_MS, () => Atomics.add(shared, 0, 1));
  let hung: HungRun | undefined;
  const globals = globalThis as Record<symbol, unknown>;
  globals[Symbol.for(KEY)] = (stalledMs: number): void => end(endingOf(hung, stalledMs, options.reports));
  const worker = new Worker(WATCHDOG, { eval: true, workerData: { shared, boundMs: options.boundMs, key: KEY } });
  // A worker starts running only once this thread's event loop turns: before the first trial, which may never let it.
  await once(worker, 'online');
  worker.unref();
  return {
    hereWatch: (h) => {
      hung = h;
      Atomics.add(shared, 0, 1);
      Atomics.store(shared, 1, h === undefined ? 0 : 1);
    },
    dispose: () => {
      stopBeats();
      Atomics.store(shared, 2, 1);
      Atomics.notify(shared, 2);
      delete globals[Symbol.for(KEY)];
    },
  };
}

/** Writes the reports and what to print, then ends the process: synchronously, in the middle of the agent's loop. */
function end(ending: Ending): never {
  for (const file of ending.files) {
    mkdirSync(dirname(file.path), { recursive: true });
    const temp = join(dirname(file.path), `.${basename(file.path)}.${process.pid}.watchdog.tmp`);
    writeFileSync(temp, file.text);
    renameSync(temp, file.path);
  }
  writeAll(1, ending.stdout);
  writeAll(2, ending.stderr);
  // Node says it waits for the debugger as it exits with an inspector session open: the run has said all it has to.
  closeSync(2);
  // process.exit may be the in-process guard's, which throws into the agent's code: this exit is the process's own.
  return (process as unknown as { reallyExit(code: number): never }).reallyExit(ending.code);
}

/** Writes all of `text` to `fd`, waiting out a pipe that is full (stdout may be non-blocking). */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    }
  }
}

/** The run's ending while a trial holds the thread: its reports rendered now, what happened and how to replay it. */
function endingOf(hung: HungRun | undefined, stalledMs: number, reports: () => WriteReportsOptions): Ending {
  const what = `no sign of life for ${stalledMs} ms in the CLI's own process (--workers 0; a synchronous loop?)`;
  if (hung === undefined)
    return {
      files: [],
      stdout: '',
      stderr: `faultline: ${what}; no trial was running, so no report\n`,
      code: ExitCode.Crash,
    };
  const { run, trial, judged } = hung(`${what}: the run was ended`);
  const rendered = renderReportsNow(run, reports());
  const shown = rendered.files.map((f) => relative(process.cwd(), f.path) || f.path);
  const finished =
    run.cells.reduce((a, c) => a + c.metrics.trials + (c.metrics.infraErrors ?? 0), 0) - (judged ? 1 : 0);
  const which = trial ? `trial ${trial.trialIndex} of ${trial.scenario} × ${trial.config}` : 'a trial';
  const stderr = [
    `\nfaultline: ${which} hung: ${what}; the run was ended.`,
    `  the reports cover the ${finished} trials that finished${judged ? ', and the hung one' : ''}` +
      (rendered.skipped.length > 0 ? ` (${rendered.skipped.join(', ')} cannot be written from here)` : ''),
    ...(trial ? [`  replay it on a worker, where a hung trial ends as such: ${replayCommand(trial)}`] : []),
  ].join('\n');
  return {
    files: rendered.files,
    stdout: `${rendered.console ?? ''}${shown.length > 0 ? `\nreports: ${shown.join(', ')}\n` : ''}`,
    stderr: `${stderr}\n`,
    code: ExitCode.GateFailed,
  };
}

/** The watchdog of a `--workers 0` run of the user's code (see `startInProcessWatchdog`); none for any other run. */
export function inProcessWatchdog(
  request: {
    readonly workers?: number;
    readonly trialTimeout?: number;
    readonly outDir: string;
    readonly view: 'summary' | 'compare';
    readonly quiet?: boolean;
  },
  scenarios: readonly Scenario[],
  {
    gates,
    reporters,
    io,
  }: { readonly gates: readonly Gate[]; readonly reporters: readonly ReporterName[]; readonly io: Io },
  wallClock: () => WallClock,
): Promise<InProcessWatchdog | undefined> {
  if (request.workers !== 0 || !runsUserCode(scenarios)) return Promise.resolve(undefined);
  const isolation = request.trialTimeout === undefined ? undefined : { trialTimeoutMs: request.trialTimeout };
  return startInProcessWatchdog({
    boundMs: isolationLimits(scenarios, isolation).trialTimeoutMs,
    reports: () => ({
      outDir: request.outDir,
      reporters: request.view === 'compare' ? reporters.filter((r) => !isConsoleReporter(r)) : reporters,
      wallClock: wallClock(),
      gates,
      color: colorEnabled(io.stdout, io.env),
      quiet: request.quiet === true,
    }),
  });
}
