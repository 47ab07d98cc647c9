import { availableParallelism, loadavg } from 'node:os';

/**
 * What starting one worker costs on the wall clock before its first trial: a thread, faultline's
 * modules loaded again and the scenario files parsed again (bench/workers.ts; about 0.4 to 0.5 s
 * on a quiet 2-core machine, rounded up so that a close call stays in process).
 */
export const WORKER_START_MS = 600;

/**
 * What a trial costs more, in CPU of all threads, on a worker than in process: its answer copied
 * to the main thread, the globals and resources checked after it, and each worker's isolate
 * compiling the hot code and collecting on its own (`faultline run --k 400` on a 2-core machine,
 * bench/workers.ts: 2 workers spent 1.4 to 1.6 times the in-process run's CPU on the same trials).
 */
export const WORKER_OVERHEAD = 0.5;

/**
 * The cores a run in process keeps busy: its own thread, and about half as much again in V8's
 * collector and compiler threads (per-thread CPU, `/proc/<pid>/task`). Each worker brings the
 * same along, so n workers run at most `free / IN_PROCESS_CORES` at a time: on 2 free cores,
 * two in-process runs side by side finish together in about 1.5 times one run's wall time
 * (the ceiling `bench/workers.ts` prints), not in the time of one.
 */
export const IN_PROCESS_CORES = 1.5;

/** The machine as the choice sees it: cores this process may use, and how many of them other work keeps busy. */
export interface Cores {
  readonly cores: number;
  /** The one-minute load average: runnable threads, this process's own included. */
  readonly load: number;
}

export const machineCores = (): Cores => ({ cores: availableParallelism(), load: loadavg()[0] ?? 0 });

/** The cores other work leaves this run (this process's own thread counts as busy), at least one. */
export const freeCores = (machine: Cores): number =>
  Math.min(machine.cores, Math.max(1, Math.round(machine.cores - machine.load + 1)));

/**
 * The projected wall time of trials that take `hereMs` in process, on `n` workers with `free`
 * cores: the workers' start-up (in parallel), then the trials' work, dearer by the overhead,
 * spread over as many cores as the workers and their collectors can keep busy.
 */
export const projectedMs = (hereMs: number, n: number, free: number): number =>
  WORKER_START_MS + (hereMs * (1 + WORKER_OVERHEAD) * IN_PROCESS_CORES) / Math.min(n * IN_PROCESS_CORES, free);

/**
 * The workers that finish `trials` more trials of `msPerTrial` each (measured in process) sooner
 * than this thread would, or 0 when none do. A run never gets slower by being put on workers:
 * when the projection does not beat running here by a clear margin, it stays here. On 2 cores
 * that is every run: a worker pair does no better than the machine's ceiling for two-way
 * parallelism allows (about 1.3×), less what a worker costs more.
 */
export function workersWorthIt(msPerTrial: number, trials: number, machine: Cores = machineCores()): number {
  const here = msPerTrial * trials;
  const free = freeCores(machine);
  let best = 0;
  let bestMs = here * 0.9;
  for (let n = 2; n <= free; n++) {
    const projected = projectedMs(here, n, free);
    if (projected < bestMs) {
      best = n;
      bestMs = projected;
    }
  }
  return best;
}
