import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { holdOf, RealClock, type Clock, type CommandResultKind } from '../../core/index.js';
import { groupAlive, ProcessTable, signalGroup, TREE_VAR } from './ProcessTable.js';
import { Output } from './Output.js';

/** What to run: an argv (no shell unless you name one), where, with what, for how long. */
export interface CommandSpec {
  /** The program and its arguments: `['sh', '-c', '…']` when you want a shell. */
  readonly argv: readonly [string, ...string[]];
  readonly cwd?: string;
  /** The environment (default: the harness's own). */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to the command's standard input, which is then closed. */
  readonly stdin?: string;
  /** Real milliseconds the command may run before its group is sent SIGTERM. */
  readonly timeoutMs: number;
  /** Real milliseconds between SIGTERM and SIGKILL (default 1000). */
  readonly graceMs?: number;
  /** Bytes kept of each of stdout and stderr (default 65,536); the rest is dropped and `truncated` set. */
  readonly maxOutputBytes?: number;
}

interface CommandCommon {
  /** The trial's handle for the process (`cmd-1`), as the history names it. */
  readonly command: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
}

/**
 * How a command ended. `timed_out` is never "nothing happened" (R18, R19): whatever the
 * command wrote before it was killed stays written; killing is not rollback.
 */
export type CommandResult =
  | (CommandCommon & { readonly kind: 'exited' })
  | (CommandCommon & {
      readonly kind: 'timed_out';
      readonly timeoutMs: number;
      readonly killedWith: 'SIGTERM' | 'SIGKILL';
    })
  | (CommandCommon & { readonly kind: 'spawn_failed'; readonly message: string });
export type { CommandResultKind };

export interface RunCommandOptions {
  /** The trial's clock: virtual time stands still while the process runs (see `runCommand`). */
  readonly clock: Clock;
  /** Where the started group is registered and the events recorded (default: a table of its own). */
  readonly processes?: ProcessTable;
  /** The service whose tool runs the command, for the history. */
  readonly service?: string;
  /** The wire's request id of the delivery running it. */
  readonly request?: string;
  /**
   * Stops the command early, as a timeout does (SIGTERM to its group, the grace, then SIGKILL),
   * when its caller no longer needs it; the result is `exited`, with the signal that ended it.
   */
  readonly signal?: AbortSignal;
  /**
   * Hears the command's own exit, before its result: that waits for its pipes to close, which a
   * grandchild holding them may delay by up to `graceMs`.
   */
  readonly onExit?: () => void;
}

const DEFAULT_GRACE_MS = 1000;
/** How often a timed-out command's group is looked for while its members are reaped. */
const REAP_POLL_MS = 10;
const DEFAULT_MAX_OUTPUT = 65_536;

/**
 * Runs a local command the way R19 asks: in its own process group (`detached`), so that on
 * timeout the whole tree (grandchildren included) is sent SIGTERM, given `graceMs` to go, then
 * SIGKILL; its output and exit status are collected either way.
 *
 * Time: a real process runs in real time, so the timeout and grace are real timers, and the
 * trial's virtual clock is held still while the process runs. Afterwards virtual time moves by
 * what the history can state without measuring: the timeout that fired (plus the grace when
 * SIGKILL was needed) for a timed-out command, nothing for one that exited by itself. No wall
 * time, pid or duration is recorded, so the history replays byte for byte.
 *
 * @example
 * const result = await runCommand({ argv: ['sh', '-c', 'make build'], timeoutMs: 30_000 }, { clock: ctx.clock });
 * if (result.kind === 'timed_out') throw new ServiceError({ status: 504, message: `build timed out: ${result.stdout}` });
 */
export async function runCommand(spec: CommandSpec, options: RunCommandOptions): Promise<CommandResult> {
  const table = options.processes ?? new ProcessTable();
  const command = table.nextHandle();
  table.record({
    type: 'command_start',
    command,
    service: options.service ?? '',
    argv: spec.argv,
    ...(options.request === undefined ? {} : { request: options.request }),
  });
  const hold = holdOf(options.clock);
  const { result } = await (hold
    ? hold(execute(spec, command, table, options))
    : execute(spec, command, table, options));
  // On a real clock the time has passed already; on the virtual one it passes now, as recorded.
  if (hold && result.kind === 'timed_out')
    await options.clock.sleep(
      result.timeoutMs + (result.killedWith === 'SIGKILL' ? (spec.graceMs ?? DEFAULT_GRACE_MS) : 0),
    );
  table.record({
    type: 'command_end',
    command,
    result: result.kind,
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    ...(result.truncated && { truncated: true }),
    ...(result.kind === 'timed_out' && { timeoutMs: result.timeoutMs, killedWith: result.killedWith }),
    ...(result.kind === 'spawn_failed' && { message: result.message }),
  });
  return result;
}

function execute(
  spec: CommandSpec,
  command: string,
  table: ProcessTable,
  { signal: abort, onExit }: Pick<RunCommandOptions, 'signal' | 'onExit'>,
): Promise<{ result: CommandResult }> {
  const real = new RealClock();
  const graceMs = spec.graceMs ?? DEFAULT_GRACE_MS;
  const stdout = new Output(spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
  const stderr = new Output(spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
  return new Promise((resolve) => {
    const child = spawnGroup(spec, command, table);
    const pgid = child.pid;
    let timedOut: 'SIGTERM' | 'SIGKILL' | undefined;
    let stopped = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    const timers: Timers = [];
    const common = (): CommandCommon => commonOf(command, exit, stdout, stderr);
    function stop(): void {
      if (settled || timedOut || stopped || pgid === undefined) return;
      stopped = true;
      end(() => undefined);
    }
    const finish = (result: CommandResult): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) real.clearTimer(t);
      abort?.removeEventListener('abort', stop);
      resolve({ result });
    };
    const report = (): void =>
      finish(
        timedOut
          ? { kind: 'timed_out', timeoutMs: spec.timeoutMs, killedWith: timedOut, ...common() }
          : { kind: 'exited', ...common() },
      );
    // A killed group's members close their pipes as they die but stay in the process table until
    // they are reaped; a timed-out command is reported once its group is gone (or the grace is up),
    // so no caller sees it alive afterwards.
    const done = (): void => {
      if ((!timedOut && !stopped) || pgid === undefined || !groupAlive(pgid)) return report();
      whenReaped(pgid, graceMs, real, timers, report);
    };

    child.stdout.on('data', (c: Buffer) => stdout.add(c));
    child.stderr.on('data', (c: Buffer) => stderr.add(c));
    // A closed stdin (the command never reads it) is not the command's failure.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      if (pgid === undefined) finish({ kind: 'spawn_failed', message: error.message, ...common() });
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      onExit?.();
      // A grandchild may still hold the pipes open; give them the grace period to drain, then stop reading.
      timers.push(
        real.setTimer(graceMs, () => {
          child.stdout.destroy();
          child.stderr.destroy();
          done();
        }),
      );
    });
    child.on('close', done);
    if (pgid === undefined) return;
    // SIGTERM to the whole group, the grace, then SIGKILL: on timeout (recorded as such) or when the caller stops it.
    const end = (onKill: (signal: 'SIGTERM' | 'SIGKILL') => void): void => {
      if (exit && !groupAlive(pgid)) return;
      termThenKill(pgid, graceMs, real, timers, onKill);
    };
    timers.push(real.setTimer(spec.timeoutMs, () => end((signal) => (timedOut = signal))));
    if (abort?.aborted) stop();
    else abort?.addEventListener('abort', stop, { once: true });
    if (spec.stdin !== undefined) child.stdin.end(spec.stdin);
    else child.stdin.end();
  });
}

type Timers = ReturnType<RealClock['setTimer']>[];

/** Starts the command as the leader of a process group of its own, registered in the table. */
function spawnGroup(
  spec: CommandSpec,
  command: string,
  table: ProcessTable,
): ChildProcessByStdio<Writable, Readable, Readable> {
  const [file, ...args] = spec.argv;
  const child = spawn(file, args, {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(spec.cwd !== undefined && { cwd: spec.cwd }),
    // The marker is inherited by all it starts, so what leaves its group is still found (R19).
    env: { ...(spec.env ?? process.env), [TREE_VAR]: table.markerOf(command) },
  });
  if (child.pid !== undefined)
    table.started({ command, argv: spec.argv, pgid: child.pid, marker: table.markerOf(command) });
  return child;
}

function commonOf(
  command: string,
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined,
  stdout: Output,
  stderr: Output,
): CommandCommon {
  return {
    command,
    exitCode: exit?.code ?? null,
    signal: exit?.signal ?? null,
    stdout: stdout.text(),
    stderr: stderr.text(),
    truncated: stdout.truncated || stderr.truncated,
  };
}

/** Calls `report` once the group is gone, looking every `REAP_POLL_MS`, or once the grace is up. */
function whenReaped(pgid: number, graceMs: number, real: RealClock, timers: Timers, report: () => void): void {
  let polls = Math.ceil(graceMs / REAP_POLL_MS);
  const poll = (): void => {
    if (!groupAlive(pgid) || --polls <= 0) return report();
    timers.push(real.setTimer(REAP_POLL_MS, poll));
  };
  timers.push(real.setTimer(REAP_POLL_MS, poll));
}

/** SIGTERM to the group now, SIGKILL after the grace if it is still there; `onKill` hears each signal before it is sent. */
function termThenKill(
  pgid: number,
  graceMs: number,
  real: RealClock,
  timers: Timers,
  onKill: (signal: 'SIGTERM' | 'SIGKILL') => void,
): void {
  onKill('SIGTERM');
  signalGroup(pgid, 'SIGTERM');
  timers.push(
    real.setTimer(graceMs, () => {
      if (!groupAlive(pgid)) return;
      onKill('SIGKILL');
      signalGroup(pgid, 'SIGKILL');
    }),
  );
}
