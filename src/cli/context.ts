import type { Io } from './io.js';

/** What every command gets: where to write, and where to leave its exit code. */
export interface CliContext {
  readonly io: Io;
  exitCode: number;
}
