import { describeThrown } from '../core/describeThrown.js';

/**
 * What `--workers 0` can do for a run whose agents share the CLI's process: `process.exit` from
 * agent code throws into that code (so the trial crashes, the run goes on and reports), and an
 * unhandled rejection or an uncaught throw (a timer's) is held for the trial that was running,
 * not left to end the CLI with Node's stack. What it cannot do is what workers do besides: a
 * heap exhausted or a native crash still take the process with them (the binary runs such a run
 * in a copy of itself, whose death it reports: `cli/superviseRun`), a synchronous loop its thread
 * (the CLI's watchdog ends the run: `cli/inProcessWatchdog`).
 */
export interface InProcessGuard {
  /**
   * The first escape since the last take, as the trial's crash message; undefined when none.
   * Waits one turn of the event loop first, so a timer the trial left at 0 ms fires and counts for it.
   */
  take(): Promise<string | undefined>;
  /** Puts `process.exit` and the process's handlers back. */
  release(): void;
}

let late = 0;
const lateEscape = (thrown: unknown): void => {
  process.stderr.write(
    `faultline: agent code run in this process (--workers 0) threw after its trial had ended: ${describeThrown(thrown)}\n`,
  );
};

export function guardInProcess(): InProcessGuard {
  const realExit = process.exit;
  let escaped: string | undefined;
  const hold = (message: string): void => {
    escaped ??= message;
  };
  const onException = (error: unknown): void => hold(`uncaught exception: ${describeThrown(error)}`);
  const onRejection = (reason: unknown): void => hold(`unhandled promise rejection: ${describeThrown(reason)}`);
  process.exit = ((code?: number | string | null) => {
    const message = `the agent called process.exit(${code ?? ''})`;
    hold(message);
    throw new Error(message);
  }) as typeof process.exit;
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return {
    async take() {
      // A real timer, on purpose: a throw the agent left in a 0 ms timer of its own fires in this
      // turn of the real event loop, so the trial is judged with it (the trial's own time is virtual).
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      const out = escaped;
      escaped = undefined;
      return out;
    },
    release() {
      process.exit = realExit;
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
      // Later escapes (a timer the agent left for later) belong to no trial: said in one line, not Node's stack.
      if (late === 0) {
        process.on('uncaughtException', lateEscape);
        process.on('unhandledRejection', lateEscape);
      }
      late++;
    },
  };
}
