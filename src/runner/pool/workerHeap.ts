/** Each worker's heap limit: a runaway allocation ends its trial, not the run. */
export const DEFAULT_WORKER_HEAP_MB = 512;

/**
 * The smallest heap limit `--worker-heap` takes. A worker's old generation holds faultline's
 * modules, tsx and the scenarios before any trial: the built-in library alone does not load
 * under 16 MB, one TypeScript scenario needs about 20 MB (Node 20), so 32 MB leaves room for a
 * small user module. Scenarios that import more (an SDK, a framework) may need more still: a
 * worker that runs out while loading is refused as input, naming the limit (see `TrialWorker`).
 */
export const MIN_WORKER_HEAP_MB = 32;
