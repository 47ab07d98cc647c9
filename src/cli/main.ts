import type { CliContext } from './context.js';
import { errorExit, ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import { processIo, type Io } from './io.js';
import { buildProgram } from './program.js';

export { processIo };

/**
 * Runs the CLI on `argv` (without `node` and the script) and resolves to the exit code; it
 * never throws and never exits the process itself (but for a second stop signal).
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  // First, before anything slow: a signal during start-up stops the command like one later on.
  const interrupt = listenForInterrupt(io);
  const ctx: CliContext = { io, exitCode: 0, argv: [...argv] };
  try {
    await buildProgram(ctx).parseAsync([...argv], { from: 'user' });
    // A command that ran to the end despite a stop signal (list, schema) still says it was stopped.
    const stopped =
      interrupt.received() !== undefined && (ctx.exitCode === ExitCode.Ok || ctx.exitCode === ExitCode.GateFailed);
    return stopped ? interrupt.exitCode() : ctx.exitCode;
  } catch (error) {
    const { code, message } = errorExit(error);
    if (message !== '') io.stderr.write(`${message}\n`);
    return code;
  } finally {
    interrupt.dispose();
  }
}
