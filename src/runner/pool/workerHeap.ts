/** Each worker's heap limit: a runaway allocation ends its trial, not the run. */
export const DEFAULT_WORKER_HEAP_MB = 512;

/**
 * The heap limit of a thread that runs no code of the user's (the built-in library's trials,
 * which cannot run away): there the limit only sets how V8 grows the heap. Under about 2 GB V8
 * grows a heap's old generation by a smaller factor than the main thread's (about 1.4 at 512 MB,
 * against up to 4), so a worker marked and compacted its whole heap about four times as often
 * as the same trials in process did (15 full collections against 4 in 3,800 trials of
 * `faultline run --k 400`, `--trace-gc`); at 2,048 MB it does as the main thread does.
 */
export const THREAD_HEAP_MB = 2_048;

/**
 * The smallest heap limit `--worker-heap` takes. A worker's old generation holds faultline's
 * modules, tsx and the scenarios before any trial: the built-in library alone does not load
 * under 16 MB, one TypeScript scenario needs about 20 MB (Node 20), so 32 MB leaves room for a
 * small user module. Scenarios that import more (an SDK, a framework) may need more still: a
 * worker that runs out while loading is refused as input, naming the limit (see `TrialWorker`).
 */
export const MIN_WORKER_HEAP_MB = 32;
