import type { FaultPlan } from '../faults/plan.js';
import { IsolatedTrials } from '../runner/pool/IsolatedTrials.js';
import type { IsolationOptions } from '../runner/pool/runOnWorkers.js';
import type { Scenario } from '../scenario/scenario.js';
import type { TrialSummary } from '../runner/trial.js';
import type { ScenarioOverride } from '../scenario/scenarioOverride.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import type { ExitCode } from './exitCodes.js';
import { listenForInterrupt } from './interrupt.js';
import type { Io } from './io.js';

export interface ReplayRequest {
  readonly scenario: Scenario;
  readonly config: ExecutionConfig;
  readonly runSeed: number;
  readonly trialIndex: number;
  readonly refs: {
    readonly scenario: string;
    readonly config: string;
    readonly agent?: string;
    readonly behaviour?: string;
  };
  readonly addedFaults?: FaultPlan;
  readonly isolation: IsolationOptions;
  /** A variant of the scenario to run (a live trial's recording as its model's cassette). */
  readonly override?: ScenarioOverride;
}

/**
 * One trial again, on a worker with `run`'s isolation (`replay`, `sweep --replay`): an agent
 * that exits, throws from nowhere or spins gets the verdict `run` gave it. A stop signal ends
 * the trial at once: the answer is then the signal's exit code.
 */
export async function replayIsolated(request: ReplayRequest, io: Io): Promise<TrialSummary | ExitCode> {
  const interrupt = listenForInterrupt(io);
  const trials = new IsolatedTrials({
    scenarios: [request.scenario],
    configs: [request.config],
    runSeed: request.runSeed,
    isolation: request.isolation,
    signal: interrupt.signal,
    ...(request.addedFaults && { addedFaults: request.addedFaults }),
  });
  try {
    const trial = await trials.run({
      scenario: 0,
      config: 0,
      trialIndex: request.trialIndex,
      refs: request.refs,
      ...(request.override && { override: request.override }),
    });
    return trial ?? interrupt.exitCode();
  } finally {
    await trials.close();
    interrupt.dispose();
  }
}
