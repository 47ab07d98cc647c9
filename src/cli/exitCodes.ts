import { CommanderError } from 'commander';
import { FaultlineErrorCode, isFaultlineError } from '../core/errors.js';
import { redactText } from '../core/secretText.js';

/** The CLI's exit codes (DESIGN.md): scripts and CI branch on them, so they never change meaning. */
export const ExitCode = {
  /** Every gate held. */
  Ok: 0,
  /** A gate failed (or a replayed trial failed). */
  GateFailed: 1,
  /** Bad input or usage: the message says what and where. */
  Usage: 2,
  /** The harness itself crashed. */
  Crash: 3,
  /** `replay` of a trial that was never judged: its model provider failed (`infra-error`), so there is no verdict to reproduce. */
  NotJudged: 4,
  /** `--otlp-endpoint`: the collector refused the traces or could not be reached; every report file is written. */
  ExportFailed: 5,
  /** Interrupted by SIGINT (128 + 2); the partial reports are written. */
  Interrupted: 130,
  /** Stopped by SIGTERM (128 + 15), as CI cancels a job; the partial reports are written. */
  Terminated: 143,
  /** Stopped by SIGHUP (128 + 1), the terminal closed; the partial reports are written. */
  HungUp: 129,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What to print for an error that reached the top, and the code to leave with. */
export interface ErrorExit {
  readonly code: ExitCode;
  /** Empty when commander has printed its own message already. */
  readonly message: string;
}

/**
 * Sorts an error that escaped a command: harness input errors (a bad scenario, an unknown
 * configuration, a bad flag) are the user's to fix and say where; anything else is our crash,
 * shown with its stack.
 */
export function errorExit(error: unknown): ErrorExit {
  const exit = sortError(error);
  // R13: a message may quote a user's value; no bearer token or API key reaches the terminal.
  return { code: exit.code, message: redactText(exit.message) };
}

function sortError(error: unknown): ErrorExit {
  if (error instanceof CommanderError) {
    // Commander has already written its message (or the help text) to the terminal.
    return { code: error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage, message: '' };
  }
  if (isFaultlineError(error)) {
    if (error.code === FaultlineErrorCode.Internal)
      return { code: ExitCode.Crash, message: `faultline crashed: ${error.stack ?? error.message}` };
    return { code: ExitCode.Usage, message: `error: ${error.message}` };
  }
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return {
    code: ExitCode.Crash,
    message: `faultline crashed (this is a bug in faultline, please report it):\n${text}`,
  };
}
