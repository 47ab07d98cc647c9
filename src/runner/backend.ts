import type { Clock } from '../core/index.js';
import type { OperationStore } from '../runtime/idempotency/OperationStore.js';
import { createWorld, type ServiceRef } from '../world/createWorld.js';
import type { World } from '../world/World.js';
import type { WorldConfig } from '../world/WorldConfig.js';

/**
 * Where a trial keeps its state. The default keeps everything in memory; a database backend
 * (`postgresBackend` from `faultline/testcontainers`) puts the world's services and ledger
 * and the operation records in real tables, so the same scenario is judged on real storage.
 */
export interface TrialBackend {
  readonly name: string;
  /** A fresh world for one trial; `trial` names it uniquely within the run. */
  createWorld(
    clock: Clock,
    config: WorldConfig,
    services: readonly ServiceRef[],
    trial: string,
  ): Promise<World> | World;
  /**
   * The operation records of the trial's agent processes, held on `clock`. A store from here
   * outlives an agent process (R22, R25); without it, each process keeps its records in
   * memory and loses them when it dies.
   */
  durableStore?(clock: Clock, trial: string): Promise<OperationStore>;
}

/** Everything in memory, gone with the trial: the default. */
export const memoryBackend: TrialBackend = {
  name: 'memory',
  createWorld: (clock, config, services) => createWorld(clock, config, services),
};
