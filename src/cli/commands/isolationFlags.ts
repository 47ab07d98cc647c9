import { Option } from 'commander';
import type { IsolationOptions } from '../../runner/pool/runOnWorkers.js';
import { MIN_WORKER_HEAP_MB } from '../../runner/pool/workerHeap.js';
import { parseInteger } from '../options.js';

/** `--trial-timeout` and `--worker-heap`, as commander hands them over. */
export interface IsolationFlags {
  readonly trialTimeout?: number;
  readonly workerHeap?: number;
}

/** The flags that bound a trial's worker: `run`, `compare`, `sweep`, `replay` and `explore` share them. */
export const isolationOptions = (): Option[] => [
  new Option(
    '--trial-timeout <ms>',
    'wall-clock milliseconds a trial may hold its worker before it is stopped and judged hung (default: ' +
      '10000, times agents / 100 for the largest crowd)',
  ).argParser((v) => parseInteger(v, 1, 'milliseconds, at least 1')),
  new Option(
    '--worker-heap <mb>',
    "each worker's heap limit in MB: an agent that allocates past it crashes its trial, not the run (default: 512)",
  ).argParser((v) =>
    parseInteger(
      v,
      MIN_WORKER_HEAP_MB,
      `megabytes, at least ${MIN_WORKER_HEAP_MB} (what a worker needs to load faultline and the scenarios)`,
    ),
  ),
];

export const isolationOf = (flags: IsolationFlags): IsolationOptions => ({
  ...(flags.trialTimeout !== undefined && { trialTimeoutMs: flags.trialTimeout }),
  ...(flags.workerHeap !== undefined && { heapMb: flags.workerHeap }),
});
