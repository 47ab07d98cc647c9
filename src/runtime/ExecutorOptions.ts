import type { Clock, History, IdSource, Rng, Transport } from '../core/index.js';
import type { AuditLog } from './audit.js';
import type { RetryConfig } from './config.js';
import type { OperationStore } from './idempotency/OperationStore.js';
import type { RetryBudget } from './retry/RetryBudget.js';
import type { ClientPolicies } from './retry/client/ClientPolicies.js';

/** What the reference `Executor` is built from. */
export interface ExecutorOptions {
  readonly transport: Transport;
  readonly config: RetryConfig;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly history: History;
  readonly ids: IdSource;
  /** The trial's start: the task deadline counts from here. */
  readonly startMs: number;
  /** Default: a fresh in-memory store. */
  readonly store?: OperationStore;
  /** Default: `config.retryBudget`. Pass one instance to every executor of a task (R11). */
  readonly budget?: RetryBudget;
  readonly audit?: AuditLog;
  /** Replaced by `[REDACTED]` in audit entries, with common secret shapes (R13). */
  readonly secrets?: readonly string[];
  /** Names the trial in audit entries. */
  readonly trial?: string;
  /**
   * Client-wide overload policies: pass one instance to every executor of a client. Default: the configuration's, for
   * this executor alone.
   */
  readonly policies?: ClientPolicies;
}
