import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RealClock } from '../../core/clock/RealClock.js';
import type { TimerHandle } from '../../core/clock/Clock.js';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import type { TrialSummary } from '../trial.js';
import { describeThrown, type LostEnd, type TrialRequest, type WorkerMessage, type WorkerSetup } from './protocol.js';

/** What became of one trial sent to a worker. */
export type WorkerAnswer =
  | { readonly kind: 'result'; readonly trial: TrialSummary; readonly retire?: string }
  /** The worker died or stalled running it; it is gone. */
  | { readonly kind: 'lost'; readonly end: LostEnd }
  /** The pool stopped the worker (the run was interrupted). */
  | { readonly kind: 'stopped' };

export interface WorkerLimits {
  /** Wall-clock milliseconds one trial may take before its worker is stopped. */
  readonly trialTimeoutMs: number;
  /** The worker's V8 old-generation heap limit. */
  readonly heapMb: number;
}

// The entry runs from source (.ts, through tsx) or built (.js), whichever this file is.
const ENTRY = new URL(`./trialThread${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
// Resolved on first use: test runners that load this module need not support import.meta.resolve.
const tsxApi = (): { esm: string; cjs: string } | undefined =>
  ENTRY.pathname.endsWith('.ts') ? { esm: import.meta.resolve('tsx/esm/api'), cjs: import.meta.resolve('tsx/cjs/api') } : undefined;
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
  await import(workerData.entry);
})();`;

interface Pending {
  readonly id: number;
  readonly resolve: (answer: WorkerAnswer) => void;
  readonly watchdog: TimerHandle;
}

/** One worker thread running trials one at a time, with a wall-clock watchdog over each. */
export class TrialWorker {
  static readonly #clock = new RealClock();
  #pending: Pending | undefined;
  #gone = false;
  #stopping = false;
  #nextId = 1;

  private constructor(
    readonly worker: Worker,
    readonly limits: WorkerLimits,
  ) {
    worker.on('message', (m: WorkerMessage) => this.#onMessage(m));
    worker.on('error', (error: Error & { code?: string }) =>
      this.#lose({
        kind: 'crashed',
        message:
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `the worker ran out of memory (heap limit ${limits.heapMb} MB); it was replaced`
            : `uncaught error in the worker: ${describeThrown(error)}`,
      }),
    );
    worker.on('exit', (code) => this.#lose({ kind: 'crashed', message: `the worker exited with code ${code} while running the trial` }));
  }

  /** Starts a worker and resolves once it has loaded the run's scenarios. */
  static start(setup: WorkerSetup, limits: WorkerLimits): Promise<TrialWorker> {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { ...setup, entry: ENTRY.href, tsx: tsxApi() },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
    return new Promise((resolve, reject) => {
      const fail = (message: string, code: string = FaultlineErrorCode.Internal): void => {
        void worker.terminate();
        reject(new FaultlineError(code as FaultlineErrorCode, message));
      };
      const onMessage = (m: WorkerMessage): void => {
        if (m.type === 'setup_failed') fail(`a worker could not load the scenarios: ${m.message}`, m.code);
        if (m.type !== 'ready') return;
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        resolve(new TrialWorker(worker, limits));
      };
      const onError = (error: Error): void => fail(`a worker failed to start: ${describeThrown(error)}`);
      const onExit = (code: number): void => fail(`a worker exited with code ${code} while starting`);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
  }

  /** False once the worker died, even between trials: the pool then starts another. */
  get alive(): boolean {
    return !this.#gone;
  }

  run(request: Omit<TrialRequest, 'type' | 'id'>): Promise<WorkerAnswer> {
    if (this.#gone) return Promise.resolve({ kind: 'stopped' });
    const id = this.#nextId++;
    return new Promise((resolve) => {
      const ms = this.limits.trialTimeoutMs;
      const watchdog = TrialWorker.#clock.setTimer(ms, () =>
        this.#lose({ kind: 'hung', at: 0, message: `no answer within the ${ms} ms wall-clock watchdog (a synchronous loop?); the worker was stopped and replaced` }),
      );
      this.#pending = { id, resolve, watchdog };
      this.worker.postMessage({ type: 'trial', id, ...request } satisfies TrialRequest);
    });
  }

  /** Terminates the worker; a trial in progress answers `stopped`. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#settle({ kind: 'stopped' });
    this.#gone = true;
    await this.worker.terminate();
  }

  #onMessage(m: WorkerMessage): void {
    if (m.type === 'result' && m.id === this.#pending?.id) this.#settle({ kind: 'result', trial: m.trial, ...(m.retire !== undefined && { retire: m.retire }) });
    else if (m.type === 'fatal') this.#lose({ kind: 'crashed', message: m.reason });
  }

  #lose(end: LostEnd): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#settle(this.#stopping ? { kind: 'stopped' } : { kind: 'lost', end });
    void this.worker.terminate();
  }

  #settle(answer: WorkerAnswer): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    TrialWorker.#clock.clearTimer(pending.watchdog);
    pending.resolve(answer);
  }
}
