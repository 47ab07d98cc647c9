import { removeTempFiles } from '../report/tempFiles.js';
import { ExitCode } from './exitCodes.js';
import type { Io, StopSignal } from './io.js';

/** The signals that stop a run: Ctrl-C, and what CI runners and terminals send a cancelled job. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const satisfies readonly StopSignal[];

/** 128 + the signal's number, as a shell reports a process that the signal killed. */
export const SIGNAL_EXIT_CODES = {
  SIGINT: ExitCode.Interrupted,
  SIGTERM: ExitCode.Terminated,
  SIGHUP: ExitCode.HungUp,
} as const satisfies Record<StopSignal, ExitCode>;

export interface Interrupt {
  /** Aborted on the first stop signal: the run stops after the trial in progress. */
  readonly signal: AbortSignal;
  /** The first stop signal received, if any. */
  readonly received: () => StopSignal | undefined;
  /** The exit code for the signal received (130 when none was: the caller stopped for another reason). */
  readonly exitCode: () => ExitCode;
  /**
   * While set, each stop signal goes to `to` and nothing else (no message, no abort, no exit): a supervisor hands them
   * to the process that runs the trials, which stops as a run does. `undefined` takes them back.
   */
  forward(to: ((name: StopSignal) => void) | undefined): void;
  /** Stops listening (call once the reports are written). */
  dispose(): void;
}

interface Shared {
  readonly interrupt: Interrupt;
  users: number;
  readonly stop: () => void;
}

// One listener per Io, shared: `main` listens from its first line (so a signal during
// start-up is not lost) and a run's own `listenForInterrupt` joins it.
const listening = new WeakMap<Io, Shared>();

/**
 * Signal handling for a run: the first SIGINT, SIGTERM or SIGHUP lets the current trial
 * finish so every report can be written for what ran; a second one leaves at once (removing
 * any half-written report), as users expect of a stuck tool.
 */
export function listenForInterrupt(io: Io): Interrupt {
  const existing = listening.get(io);
  if (existing) {
    existing.users++;
    return existing.interrupt;
  }
  const controller = new AbortController();
  let received: StopSignal | undefined;
  let forwardTo: ((name: StopSignal) => void) | undefined;
  const codeOf = (s: StopSignal | undefined): ExitCode =>
    s === undefined ? ExitCode.Interrupted : SIGNAL_EXIT_CODES[s];
  const onSignal = (name: StopSignal): void => {
    if (forwardTo !== undefined) return forwardTo(name);
    if (received !== undefined) {
      io.stderr.write(`\nfaultline: ${name} again, exiting without reports\n`);
      removeTempFiles();
      io.exit(codeOf(received));
    }
    received = name;
    const how = name === 'SIGINT' ? 'interrupted' : `interrupted by ${name}`;
    io.stderr.write(
      `\nfaultline: ${how}; finishing the trial in progress and writing the reports ` +
        `(${name === 'SIGINT' ? 'Ctrl-C' : `${name}`} again to quit at once)\n`,
    );
    controller.abort();
  };
  const handlers = STOP_SIGNALS.map((name) => [name, () => onSignal(name)] as const);
  for (const [name, handler] of handlers) io.signals.on(name, handler);
  const stop = (): void => {
    for (const [name, handler] of handlers) io.signals.off(name, handler);
    listening.delete(io);
  };
  const shared: Shared = {
    users: 1,
    stop,
    interrupt: {
      signal: controller.signal,
      received: () => received,
      exitCode: () => codeOf(received),
      forward: (to) => {
        forwardTo = to;
      },
      dispose: () => {
        if (--shared.users === 0) shared.stop();
      },
    },
  };
  listening.set(io, shared);
  // Signals that came before anyone could listen (bin/faultline.js holds them while the CLI loads).
  for (const name of io.pendingSignals?.splice(0) ?? []) onSignal(name);
  return shared.interrupt;
}
