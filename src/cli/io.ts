import { supervisedRunOf } from './supervisedEnv.js';

/** A stream the CLI writes to: `process.stdout`, `process.stderr`, or a test's buffer. */
export interface OutStream {
  write(text: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Where the CLI talks to the world: passed in, so commands can run inside a test as well as under `node`. */
export interface Io {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The process whose SIGINT, SIGTERM or SIGHUP ends a run; tests may pass a stand-in `EventEmitter`. */
  readonly signals: SignalSource;
  /** Stop signals that arrived before the CLI listened (bin/faultline.js holds them); taken out once handled. */
  readonly pendingSignals?: StopSignal[];
  /** Leaves at once with `code`, for the second Ctrl-C. */
  readonly exit: (code: number) => never;
  /**
   * The streams and signals are this process's own (the binary, not a test's stand-ins): `run --workers 0` may then
   * run its trials in a copy of this process and supervise it (`superviseRun`).
   */
  readonly ownProcess?: boolean;
}

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

export interface SignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
}

/**
 * A reader that goes away (`faultline … 2>&1 | head -1`) makes the next write fail with EPIPE,
 * an 'error' event that would crash the CLI with exit 1: the exit code must stay the one the
 * run earned (2 for a usage error), so the write is dropped, as there is nobody left to read it.
 */
function dropWritesOnBrokenPipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (stream.listenerCount('error') === 0) stream.on('error', () => undefined);
  return stream;
}

export const processIo = (pendingSignals: StopSignal[] = []): Io => ({
  stdout: dropWritesOnBrokenPipe(process.stdout),
  stderr: supervisorsTerminal(dropWritesOnBrokenPipe(process.stderr)),
  env: process.env,
  signals: process,
  pendingSignals,
  exit: (code) => process.exit(code),
  ownProcess: true,
});

/** Under a supervisor whose stderr is a terminal, this process's stderr (a pipe to it) is shown as that terminal. */
function supervisorsTerminal(stream: NodeJS.WriteStream): OutStream {
  const columns = supervisedRunOf(process.env)?.stderrColumns;
  if (columns === undefined) return stream;
  return { write: (text) => stream.write(text), isTTY: true, columns };
}

/** `CI` set to anything but empty, `0` or `false`, as most CI services do. */
export const isCi = (env: Io['env']): boolean => {
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
};
