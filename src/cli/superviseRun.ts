import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { close as closeInspector, url as inspectorUrl } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealClock, wallMs } from '../core/clock/RealClock.js';
import { replayCommand } from '../runner/replay.js';
import { readJournal, runFromJournal } from '../runner/runJournal.js';
import type { Gate } from '../stats/gates.js';
import type { ReporterName } from '../report/write.js';
import { ExitCode } from './exitCodes.js';
import type { Interrupt } from './interrupt.js';
import type { Io, OutStream } from './io.js';
import { loadRunInputs } from './loadRunInputs.js';
import { reportRun } from './reportRun.js';
import type { RunRequest } from './runRequest.js';
import { SUPERVISED_ENV, supervisedRunOf, type SupervisedRun } from './supervisedEnv.js';

// What V8 prints as it aborts a process whose heap ran out: the cause, and never the user's to read.
const OOM_REPORT = /<--- Last few GCs --->|FATAL ERROR: [^\n]*out of memory|JavaScript heap out of memory/;
// How the report's lines begin: a last partial line like one of these may be its start.
const REPORT_STARTS = ['<--- Last few GCs --->', 'FATAL ERROR:'];
// A shell's code for a process ended by SIGTRAP or SIGABRT, as V8 ends one (a wrapper may pass it on as an exit code).
const ABORT_CODES = new Set([133, 134]);

/** How the process that ran the trials ended: on its own, with its exit code, or killed, and why. */
export type ChildEnd =
  { readonly kind: 'exited'; readonly code: number } | { readonly kind: 'died'; readonly cause: string };

/**
 * `run --workers 0` from the binary: the agents' code runs in the CLI's process, where an exhausted heap or a native
 * crash ends the process with no last word. So this process runs none of it: it starts one copy of itself (the same
 * Node flags and command line, so `--inspect` and the like reach the code; `SUPERVISED_ENV` tells it its part) and
 * stays thin: it hands over stop signals and stdio, and passes the copy's exit code on. When the copy dies instead,
 * it writes the reports itself from the journal the copy appended as each trial started and finished.
 */
export function supervises(request: Pick<RunRequest, 'workers'>, io: Io): boolean {
  return request.workers === 0 && io.ownProcess === true && supervisedRunOf(io.env) === undefined;
}

export async function superviseRun(
  request: RunRequest,
  resolved: { readonly seed: number; readonly gates: readonly Gate[]; readonly reporters: readonly ReporterName[] },
  interrupt: Interrupt,
  io: Io,
): Promise<ExitCode> {
  const clock = new RealClock();
  const startedAt = new Date(clock.now()).toISOString();
  const started = wallMs();
  const folder = mkdtempSync(join(tmpdir(), 'faultline-run-'));
  try {
    const columns = io.stderr.isTTY === true ? (io.stderr.columns ?? 80) : undefined;
    const marker: SupervisedRun = {
      journal: join(folder, 'journal.ndjson'),
      seed: resolved.seed,
      ...(columns !== undefined && { stderrColumns: columns }),
    };
    const end = await runChild(marker, interrupt, io);
    if (end.kind === 'exited') return end.code as ExitCode;
    const silent: OutStream = { write: () => true };
    // Loaded again only now, to judge the trial the process died in: what loading says, the process said already.
    const loaded = await loadRunInputs(request, resolved.gates, resolved.reporters, {
      ...io,
      stdout: silent,
      stderr: silent,
    });
    if (loaded === undefined) {
      io.stderr.write(`\nfaultline: the process that ran the trials died (${end.cause}) before any trial\n`);
      return ExitCode.Crash;
    }
    const { run, trial } = await runFromJournal(
      {
        scenarios: loaded.scenarios,
        configs: loaded.configs,
        k: request.k,
        seed: resolved.seed,
        ...(request.keepFailures !== undefined && { keepFailures: request.keepFailures }),
        ...(request.shard && { shard: request.shard }),
      },
      readJournal(marker.journal),
      { cause: end.cause },
    );
    io.stderr.write('\n');
    const wallClock = {
      startedAt,
      finishedAt: new Date(clock.now()).toISOString(),
      durationMs: Math.round(wallMs() - started),
    };
    const code = await reportRun(
      run,
      { ...request, gates: resolved.gates, reporters: resolved.reporters, wallClock },
      io,
    );
    if (trial !== undefined)
      io.stderr.write(`  replay it on a worker, where its trial alone ends: ${replayCommand(trial)}\n`);
    return code;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Starts the copy of this process that runs the trials, and resolves to how it ended. */
function runChild(marker: SupervisedRun, interrupt: Interrupt, io: Io): Promise<ChildEnd> {
  // A debugger's port is this process's: the copy, started with the same --inspect, takes it over.
  if (inspectorUrl() !== undefined) closeInspector();
  return new Promise((resolve) => {
    // In a process group of its own: a terminal's Ctrl-C reaches only this process, which hands it over once (a copy
    // that heard it from the terminal and again from us would take the second as "quit at once, without reports").
    // So nothing reaches it when this process is killed hard: the IPC channel's end tells it (leaveWithSupervisor).
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      detached: true,
      stdio: ['inherit', 'inherit', 'pipe', 'ipc'],
      env: { ...io.env, [SUPERVISED_ENV]: JSON.stringify(marker) },
    });
    interrupt.forward((name) => void child.kill(name));
    // If this process is made to leave (a second signal's exit), the copy is told to stop too.
    const orphaned = (): void => void child.kill('SIGTERM');
    process.once('exit', orphaned);
    const stderr = v8ReportFilter(io.stderr);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.write(chunk));
    const settle = (end: ChildEnd): void => {
      interrupt.forward(undefined);
      process.off('exit', orphaned);
      resolve(end);
    };
    child.once('error', (error) => settle({ kind: 'died', cause: `it could not be started: ${error.message}` }));
    child.once('close', (code, signal) => settle(endOfCopy(stderr, code, signal)));
  });
}

/**
 * The copy's end, once its stderr is closed. What looked like V8's report goes out after all when the copy ended on
 * its own: then it was the agents' to print (a subprocess's error they logged), not V8's last words.
 */
export function endOfCopy(stderr: V8ReportFilter, code: number | null, signal: NodeJS.Signals | null): ChildEnd {
  stderr.end();
  const end = endOf(code, signal, stderr.outOfMemory());
  if (end.kind === 'exited') stderr.release();
  return end;
}

/**
 * The copy's end: its own exit code, or its death and the cause, from the signal and what V8 printed. V8's report
 * names the cause only of an abnormal end (a signal, an abort's code): text like it from a copy that exited on its
 * own was an agent's output, and its exit code stands.
 */
export function endOf(code: number | null, signal: NodeJS.Signals | null, outOfMemory: boolean): ChildEnd {
  const aborted = code !== null && ABORT_CODES.has(code);
  if (outOfMemory && (signal !== null || aborted))
    return {
      kind: 'died',
      cause: `out of memory: V8 ran out of heap and ended it with ${signal ?? `exit code ${code}`}`,
    };
  if (signal !== null) return { kind: 'died', cause: `killed by ${signal}` };
  if (aborted) return { kind: 'died', cause: `aborted (exit code ${code})` };
  return { kind: 'exited', code: code ?? ExitCode.Crash };
}

/** The copy's stderr on its way to ours, V8's report of an exhausted heap held back (`v8ReportFilter`). */
export interface V8ReportFilter {
  write(chunk: string): void;
  /** No more chunks: a held partial line goes out, unless a report was seen. */
  end(): void;
  /** Whether a report was seen: from its first line on, everything is held back. */
  outOfMemory(): boolean;
  /** Writes out what was held back since the report's first line (the copy ended normally: it was no report). */
  release(): void;
}

/**
 * Passes the copy's stderr through as it comes (progress bars and all), but for V8's report of an exhausted heap:
 * from its first line on, everything is held back until the copy's end says whether it was one (`release`). A last
 * partial line that may begin the report waits for the next chunk (`end` lets it go when none comes).
 */
export function v8ReportFilter(to: OutStream): V8ReportFilter {
  let withheld: string | undefined;
  let held = '';
  return {
    write(chunk) {
      if (withheld !== undefined) {
        withheld += chunk;
        return;
      }
      let text = held + chunk;
      held = '';
      const match = OOM_REPORT.exec(text);
      if (match !== null) {
        // What came before the report still goes out; the blank line that leads the report does not (yet).
        const before = text.slice(0, match.index).replace(/\n+$/, '\n');
        const out = before.trim() !== '' ? before : '';
        if (out !== '') to.write(out);
        withheld = text.slice(out.length);
        return;
      }
      const lineStart = text.lastIndexOf('\n') + 1;
      const last = text.slice(lineStart);
      if (last !== '' && REPORT_STARTS.some((start) => start.startsWith(last))) {
        held = last;
        text = text.slice(0, lineStart);
      }
      if (text !== '') to.write(text);
    },
    end() {
      if (withheld === undefined && held !== '') to.write(held);
      held = '';
    },
    outOfMemory: () => withheld !== undefined,
    release() {
      if (withheld !== undefined && withheld !== '') to.write(withheld);
      withheld = undefined;
    },
  };
}
