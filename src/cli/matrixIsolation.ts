import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { runMatrix } from '../runner/run.js';
import { defaultWorkers } from '../runner/pool/runOnWorkers.js';
import { runsUserCode } from '../agent/kinds/runsUserCode.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ModelMode } from '../scenario/modelSource.js';
import type { pricer } from '../model/live/prices.js';
import { DEFAULT_MAX_CONNECTIONS } from '../model/live/liveDefaults.js';
import { defaultLiveWorkers } from '../model/live/liveWorkers.js';
import type { Io } from './io.js';
import type { LiveSession } from './liveRun.js';
import type { RunRequest } from './runRequest.js';

/**
 * The watchdog of a live trial's worker, unless `--trial-timeout` says otherwise: connections and the provider's
 * retries take real time.
 */
const LIVE_TRIAL_TIMEOUT_MS = 600_000;

/** Starts the model gateway of a `--live` or `--record` run. */
export async function startLive(
  request: RunRequest,
  modelMode: ModelMode,
  scenarios: readonly Scenario[],
  price: ReturnType<typeof pricer>,
  spend: AbortController,
  io: Io,
): Promise<LiveSession> {
  // Loaded on first use, as the html writer below: a run without --live never needs the model gateway.
  const { startLiveRun } = await import('./liveRun.js');
  return startLiveRun(scenarios, io.env, {
    maxConnections: request.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    recordDir: join(request.outDir, 'live'),
    ...(request.liveRetries !== undefined && { retries: request.liveRetries }),
    ...(modelMode === 'record' && { reuseAnswers: true }),
    // Priced as each answer arrives, in the gateway: trials in flight cannot spend past it.
    ...(request.maxCost !== undefined && {
      maxCost: { limit: request.maxCost, price: (model, usage) => price(model, usage), onLimit: () => spend.abort() },
    }),
  });
}

/** runMatrix's workers, and the rest of how its trials are isolated. */
export function matrixIsolation(
  request: RunRequest,
  toModel: boolean,
  scenarios: readonly Scenario[],
  trials: number,
): Pick<Parameters<typeof runMatrix>[0], 'workers' | 'keepFailures' | 'shard' | 'isolation'> {
  return {
    // Live (and record) trials run on workers, one per connection by default: the key and the
    // connection limit stay in the gateway, in this thread.
    workers:
      request.workers ??
      (toModel
        ? defaultLiveWorkers(request.maxConnections ?? DEFAULT_MAX_CONNECTIONS, trials, availableParallelism())
        : workersFor(scenarios, request, trials)),
    ...(request.keepFailures !== undefined && { keepFailures: request.keepFailures }),
    ...(request.shard && { shard: request.shard }),
    isolation: {
      // A live trial waits on the wall clock for connections and the provider's retries: its watchdog waits longer.
      ...(request.trialTimeout !== undefined
        ? { trialTimeoutMs: request.trialTimeout }
        : toModel && { trialTimeoutMs: LIVE_TRIAL_TIMEOUT_MS }),
      ...(request.workerHeap !== undefined && { heapMb: request.workerHeap }),
    },
  };
}

/**
 * The default worker count. A run of no code of the user's (the built-in library's scripted
 * agents on built-in services, no watchdog or heap limit asked for) needs no isolation: its
 * first trials run in this process, timed, and the rest go to workers only if their start-up
 * is repaid (`auto`, see `workersWorthIt`), so the default never makes a run slower than in
 * process. The user's code is always isolated: the available cores, one per 500 trials.
 */
function workersFor(
  scenarios: readonly Scenario[],
  request: { readonly trialTimeout?: number; readonly workerHeap?: number },
  trials: number,
): number | 'auto' {
  const isolated = runsUserCode(scenarios) || request.trialTimeout !== undefined || request.workerHeap !== undefined;
  return isolated ? defaultWorkers(trials) : 'auto';
}
