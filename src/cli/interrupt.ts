import { ExitCode } from './exitCodes.js';
import type { Io } from './io.js';

export interface Interrupt {
  /** Aborted on the first SIGINT: the run stops after the trial in progress. */
  readonly signal: AbortSignal;
  /** Stops listening (call once the reports are written). */
  dispose(): void;
}

/**
 * Ctrl-C handling for a run: the first SIGINT lets the current trial finish so every report
 * can be written for what ran; a second one leaves at once, as users expect of a stuck tool.
 */
export function listenForInterrupt(io: Io): Interrupt {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) {
      io.stderr.write('\nfaultline: interrupted again, exiting without reports\n');
      io.exit(ExitCode.Interrupted);
    }
    io.stderr.write('\nfaultline: interrupted; finishing the trial in progress and writing the reports (Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  io.signals.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => io.signals.off('SIGINT', onSigint) };
}
