import { ExitCode } from './exitCodes.js';

/** The variable that tells a CLI process it runs the trials for a supervisor (`--workers 0`), and what it needs to. */
export const SUPERVISED_ENV = 'FAULTLINE_SUPERVISED_RUN';

/** What the supervising CLI hands the process that runs the trials. */
export interface SupervisedRun {
  /** The NDJSON file each trial's start and end is appended to (`runner/runJournal`). */
  readonly journal: string;
  /** The run's seed, as the supervisor resolved it (a `--seed random` is drawn once, there). */
  readonly seed: number;
  /** The supervisor's stderr is a terminal this wide: the child's, a pipe through it, draws the progress bar as on one. */
  readonly stderrColumns?: number;
}

/** The supervisor's hand-over when this process runs the trials for one, else undefined. */
export function supervisedRunOf(env: Readonly<Record<string, string | undefined>>): SupervisedRun | undefined {
  const text = env[SUPERVISED_ENV];
  if (text === undefined || text === '') return undefined;
  try {
    const value = JSON.parse(text) as Partial<SupervisedRun>;
    return typeof value.journal === 'string' && typeof value.seed === 'number' ? (value as SupervisedRun) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Under a supervisor, this process leaves as soon as the supervisor is gone, however it went: a SIGKILL runs none of
 * its exit handlers, but the IPC channel it opened to this process closes with it. No one then waits for the trials
 * or reads their output. The channel does not keep this process alive: its run ends as it would without it.
 */
export function leaveWithSupervisor(proc: NodeJS.Process = process): void {
  if (proc.channel === undefined) return;
  // Taken now, before any trial: while one runs in this process, `process.exit` is the guard that ends only the trial.
  const exit = proc.exit.bind(proc);
  proc.once('disconnect', () => exit(ExitCode.Crash));
  // After the listener: adding one refs the channel again.
  proc.channel.unref();
}
