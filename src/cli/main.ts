import type { CliContext } from './context.js';
import { errorExit } from './exitCodes.js';
import { processIo, type Io } from './io.js';
import { buildProgram } from './program.js';

/**
 * Runs the CLI on `argv` (without `node` and the script) and resolves to the exit code; it
 * never throws and never exits the process itself (but for a second Ctrl-C).
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const ctx: CliContext = { io, exitCode: 0 };
  try {
    await buildProgram(ctx).parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    const { code, message } = errorExit(error);
    if (message !== '') io.stderr.write(`${message}\n`);
    return code;
  }
}
