import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RealClock } from '../../core/clock/RealClock.js';
import type { TimerHandle } from '../../core/clock/Clock.js';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import type { HistoryEvent } from '../../core/events.js';
import type { WorldSnapshot } from '../../world/snapshot.js';
import type { PartialTrial, TrialSummary } from '../trial.js';
import { OUT_OF_MEMORY, ProcessHostedWorker, type TrialThread } from './ProcessHostedWorker.js';
import { DEFAULT_WORKER_HEAP_MB } from './workerHeap.js';
import {
  describeThrown,
  type LostEnd,
  type TrialBatch,
  type TrialRequest,
  type WorkerMessage,
  type WorkerSetup,
} from './protocol.js';

/** What became of one trial sent to a worker. */
export type WorkerAnswer =
  | { readonly kind: 'result'; readonly trial: TrialSummary; readonly retire?: string }
  /** The worker died or stalled running it; it is gone. */
  | { readonly kind: 'lost'; readonly end: LostEnd; readonly partial?: PartialTrial }
  /** The worker was stopped (the run was interrupted, or it was retired) or died on an earlier trial: this one did not run. */
  | { readonly kind: 'stopped' };

export interface WorkerLimits {
  /** Wall-clock milliseconds one trial may take before its worker is stopped. */
  readonly trialTimeoutMs: number;
  /** The worker's V8 old-generation heap limit. */
  readonly heapMb: number;
  /** `heapMb` was asked for (`--worker-heap`), not the default: a refusal names the flag only then. */
  readonly heapGiven?: boolean;
  /**
   * Host the worker in a process of its own (for the user's code): the heap limit alone cannot
   * stop every runaway allocation from aborting the process it runs in (see `ProcessHostedWorker`).
   */
  readonly ownProcess?: boolean;
}

/** The verdict's words for a worker that ran out of memory: what, the limit, and the flag that sets it. */
export const outOfMemoryMessage = (heapMb: number): string =>
  `out of memory: the agent's code allocated past the worker's heap limit of ${heapMb} MB (--worker-heap); the worker was replaced`;

/** The refusal of a heap limit the scenarios cannot even be loaded under: which files, the limit, and the flag. */
export function loadOutOfMemoryMessage(heapMb: number, files: readonly string[], given = true): string {
  const named = files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
  const what = `a worker ran out of memory while loading the scenarios (${named || 'the built-in library'})`;
  // Only a limit the user typed is quoted as a flag: the default came from no flag of theirs.
  return given
    ? `--worker-heap ${heapMb}: ${what} under its heap limit of ${heapMb} MB; give it more (the default is ${DEFAULT_WORKER_HEAP_MB} MB)`
    : `${what} under the default heap limit of ${heapMb} MB (no --worker-heap given); give it more with --worker-heap <MB>`;
}

// The entry runs from source (.ts, through tsx) or built (.js), whichever this file is.
const ENTRY = new URL(`./trialThread${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
// Resolved on first use: test runners that load this module need not support import.meta.resolve.
const tsxApi = (): { esm: string; cjs: string } | undefined =>
  ENTRY.pathname.endsWith('.ts')
    ? { esm: import.meta.resolve('tsx/esm/api'), cjs: import.meta.resolve('tsx/cjs/api') }
    : undefined;
// Built, faultline's main entry is loaded natively before a user's .ts file registers tsx: a
// user's module that imports 'faultline' then finds it loaded, rather than sending each of its
// modules through tsx's hooks thread (about 0.15 s of CPU per worker; 1.6 MB of heap if unused).
const PUBLIC_ENTRY = ENTRY.pathname.endsWith('.ts') ? undefined : new URL('../../public/index.js', import.meta.url);
// Workers do not inherit the main thread's module hooks: a TypeScript entry registers tsx first,
// as loadFile's ensureTypeScriptLoader does (ESM and CJS), and sets its flag so it is not registered twice.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) {
    const [esm, cjs] = await Promise.all([import(workerData.tsx.esm), import(workerData.tsx.cjs)]);
    esm.register();
    cjs.register();
    globalThis[Symbol.for('faultline.tsxRegistered')] = true;
  }
  if (workerData.preload) await import(workerData.preload);
  await import(workerData.entry);
})();`;

interface Pending {
  readonly id: number;
  readonly resolve: (answer: WorkerAnswer) => void;
  /** Set while this is the first trial not answered yet. */
  watchdog?: TimerHandle;
  /** With batches: the trial the worker had started when the watchdog was set (`WorkerSetup.progress`). */
  started?: number;
  /** What the worker streamed of this trial so far (see `WorkerSetup.stream`). */
  readonly events: HistoryEvent[];
  snapshot?: WorldSnapshot;
}

/** What the worker streamed of a trial before it was lost, if anything. */
const streamed = (p: Pending): PartialTrial | undefined =>
  p.events.length === 0 ? undefined : { history: p.events, ...(p.snapshot && { snapshot: p.snapshot }) };

/**
 * One worker thread running trials one at a time, in the order they were sent, with a
 * wall-clock watchdog over the one it is running. Several may be sent ahead.
 */
export class TrialWorker {
  static readonly #clock = new RealClock();
  readonly #pending: Pending[] = [];
  /** With batches: which trial the worker is running (see `WorkerSetup.progress`). */
  readonly #progress: Int32Array | undefined;
  #gone = false;
  #stopping = false;
  #nextId = 1;

  private constructor(
    readonly worker: TrialThread,
    readonly limits: WorkerLimits,
    progress: Int32Array | undefined,
  ) {
    this.#progress = progress;
    worker.on('message', (m: WorkerMessage) => this.#onMessage(m));
    worker.on('error', (error: Error & { code?: string }) =>
      this.#lose(
        {
          kind: 'crashed',
          message:
            error.code === OUT_OF_MEMORY
              ? outOfMemoryMessage(limits.heapMb)
              : `uncaught error in the worker: ${describeThrown(error)}`,
        },
        this.#pending[0] && streamed(this.#pending[0]),
      ),
    );
    worker.on('exit', (code) =>
      this.#lose(
        { kind: 'crashed', message: `the worker exited with code ${code} while running the trial` },
        this.#pending[0] && streamed(this.#pending[0]),
      ),
    );
  }

  /**
   * Starts a worker and resolves once it has loaded the run's scenarios. A thread of this
   * process may be sent trials in batches (`batches`); one in a process of its own gets them
   * one at a time, as its answers must tell which trial a crash took. Aborting `signal` before
   * it is ready terminates it and rejects.
   */
  static start(setup: WorkerSetup, limits: WorkerLimits, signal?: AbortSignal): Promise<TrialWorker> {
    const progress = limits.ownProcess === true ? undefined : new Int32Array(new SharedArrayBuffer(4));
    const options = {
      eval: true,
      workerData: {
        ...setup,
        ...(progress && { progress }),
        entry: ENTRY.href,
        tsx: tsxApi(),
        ...(PUBLIC_ENTRY && { preload: PUBLIC_ENTRY.href }),
      },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    } as const;
    const worker: TrialThread =
      limits.ownProcess === true ? new ProcessHostedWorker(BOOTSTRAP, options) : new Worker(BOOTSTRAP, options);
    return new Promise((resolve, reject) => {
      const fail = (message: string, code: string = FaultlineErrorCode.Internal): void => {
        signal?.removeEventListener('abort', onAbort);
        void worker.terminate();
        reject(new FaultlineError(code as FaultlineErrorCode, message));
      };
      // No watchdog runs before the first trial: a worker that never says it is ready (a module
      // that spins at load) would hold the caller for ever, stop signal included.
      const onAbort = (): void => fail('the worker was stopped while it started');
      if (signal?.aborted === true) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const onMessage = (m: WorkerMessage): void => {
        if (m.type === 'setup_failed') fail(`a worker could not load the scenarios: ${m.message}`, m.code);
        if (m.type !== 'ready') return;
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        resolve(new TrialWorker(worker, limits, progress));
      };
      // Running out while loading is no trial's doing: the limit is too small for the scenarios and what they import.
      const onError = (error: Error & { code?: string }): void =>
        error.code === OUT_OF_MEMORY
          ? fail(
              loadOutOfMemoryMessage(limits.heapMb, setup.scenarioFiles, limits.heapGiven !== false),
              FaultlineErrorCode.Usage,
            )
          : fail(`a worker failed to start: ${describeThrown(error)}`);
      const onExit = (code: number): void => fail(`a worker exited with code ${code} while starting`);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
  }

  /** False once the worker died, even between trials: the pool then starts another. */
  get alive(): boolean {
    return !this.#gone;
  }

  /** True when this worker takes several trials in one message (`runBatch`). */
  get batches(): boolean {
    return this.#progress !== undefined;
  }

  run(request: Omit<TrialRequest, 'id'>): Promise<WorkerAnswer> {
    return this.runBatch([request])[0]!;
  }

  /** Sends trials in one message (one at a time unless `batches`); each answer settles on its own. */
  runBatch(requests: readonly Omit<TrialRequest, 'id'>[]): Promise<WorkerAnswer>[] {
    if (this.#gone) return requests.map(() => Promise.resolve({ kind: 'stopped' }));
    if (requests.length > 1 && !this.batches)
      throw new Error('a worker in a process of its own takes one trial at a time');
    const trials = requests.map((r) => ({ id: this.#nextId++, ...r }));
    const answers = trials.map(
      ({ id }) => new Promise<WorkerAnswer>((resolve) => this.#pending.push({ id, resolve, events: [] })),
    );
    if (this.#pending.length === trials.length) this.#watch();
    this.worker.postMessage({ type: 'trials', trials } satisfies TrialBatch);
    return answers;
  }

  /** Trials sent and not yet answered. */
  get inFlight(): number {
    return this.#pending.length;
  }

  // The worker starts the next trial as soon as it answers the one before: its watchdog starts then.
  // With batches, answers come a batch at a time: while the worker has started another trial
  // since the watchdog was set, it is set again, so it catches one trial that runs past the limit.
  #watch(): void {
    const head = this.#pending[0];
    if (head === undefined) return;
    const ms = this.limits.trialTimeoutMs;
    if (head.watchdog !== undefined) TrialWorker.#clock.clearTimer(head.watchdog);
    const progress = this.#progress;
    if (progress !== undefined) head.started = Atomics.load(progress, 0);
    head.watchdog = TrialWorker.#clock.setTimer(ms, () => {
      if (progress !== undefined && Atomics.load(progress, 0) !== head.started) return this.#watch();
      this.#lose(
        {
          kind: 'hung',
          at: 0,
          message: `no answer within the ${ms} ms wall-clock watchdog (a synchronous loop?); the worker was stopped and replaced`,
        },
        streamed(head),
      );
    });
  }

  /** Terminates the worker; every trial sent and not answered answers `stopped`. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#gone = true;
    while (this.#pending.length > 0) this.#settleHead({ kind: 'stopped' });
    await this.worker.terminate();
  }

  #onMessage(m: WorkerMessage): void {
    if (m.type === 'results') {
      for (const r of m.results) {
        if (r.id === this.#pending[0]?.id)
          this.#settleHead({ kind: 'result', trial: r.trial, ...(r.retire !== undefined && { retire: r.retire }) });
      }
      this.#watch();
    } else if (m.type === 'progress' && m.id === this.#pending[0]?.id) {
      const head = this.#pending[0];
      head.events.push(m.event);
      if (m.snapshot !== undefined) head.snapshot = m.snapshot;
    } else if (m.type === 'fatal')
      this.#lose({ kind: 'crashed', message: m.reason }, m.partial ?? (this.#pending[0] && streamed(this.#pending[0])));
  }

  /**
   * The trial the worker is running is lost with it (with what it did so far, when known); the
   * ones sent after it never ran. With batches, the trials before it in its batch finished but
   * went unanswered with the worker: they did not run either, as far as the run can tell.
   */
  #lose(end: LostEnd, partial?: PartialTrial): void {
    if (this.#gone) return;
    this.#gone = true;
    const running = this.#progress === undefined ? -1 : Atomics.load(this.#progress, 0);
    if (this.#pending.some((p) => p.id === running))
      while (this.#pending[0]!.id !== running) this.#settleHead({ kind: 'stopped' });
    this.#settleHead(this.#stopping ? { kind: 'stopped' } : { kind: 'lost', end, ...(partial && { partial }) });
    while (this.#pending.length > 0) this.#settleHead({ kind: 'stopped' });
    void this.worker.terminate();
  }

  #settleHead(answer: WorkerAnswer): void {
    const head = this.#pending.shift();
    if (head === undefined) return;
    if (head.watchdog !== undefined) TrialWorker.#clock.clearTimer(head.watchdog);
    head.resolve(answer);
  }
}
