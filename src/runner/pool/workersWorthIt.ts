import { availableParallelism, loadavg } from 'node:os';

/**
 * What starting one worker costs on the wall clock before its first trial: a thread, faultline's
 * modules loaded again and the scenario files parsed again (bench/workers.ts; about 0.4 to 0.5 s
 * on a quiet 2-core machine, rounded up so that a close call stays in process).
 */
export const WORKER_START_MS = 600;

/**
 * What a trial costs more on a worker than in process: its answer copied to the main thread,
 * the globals and resources checked after it (bench/workers.ts, 1 worker against in process).
 */
export const WORKER_OVERHEAD = 0.15;

/** The machine as the choice sees it: cores this process may use, and how many of them other work keeps busy. */
export interface Cores {
  readonly cores: number;
  /** The one-minute load average: runnable threads, this process's own included. */
  readonly load: number;
}

export const machineCores = (): Cores => ({ cores: availableParallelism(), load: loadavg()[0] ?? 0 });

/**
 * The workers that finish `trials` more trials of `msPerTrial` each (measured in process) sooner
 * than this thread would, or 0 when none do: n workers pay their start-up (in parallel) and run
 * the trials n at a time, a little slower each, on the cores other work leaves free (this
 * process's own thread counts as busy). A run never gets slower by being put on workers: when
 * the projection does not beat running here by a clear margin, it stays here.
 */
export function workersWorthIt(msPerTrial: number, trials: number, machine: Cores = machineCores()): number {
  const here = msPerTrial * trials;
  const free = Math.min(machine.cores, Math.max(1, Math.round(machine.cores - machine.load + 1)));
  let best = 0;
  let bestMs = here * 0.9;
  for (let n = 2; n <= free; n++) {
    const projected = WORKER_START_MS + (here * (1 + WORKER_OVERHEAD)) / n;
    if (projected < bestMs) {
      best = n;
      bestMs = projected;
    }
  }
  return best;
}
