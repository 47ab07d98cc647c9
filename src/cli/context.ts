import type { Io } from './io.js';

/** What every command gets: where to write, and where to leave its exit code. */
export interface CliContext {
  readonly io: Io;
  exitCode: number;
  /** The command line as typed (without `node` and the script): `--watch` runs it again. */
  readonly argv?: readonly string[];
}
