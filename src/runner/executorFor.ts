import type { Clock, History, IdSource, Rng, Transport } from '../core/index.js';
import { ClientRetries } from '../faults/ClientRetries.js';
import { createLibraryExecutor } from '../runtime/adapters/createLibraryExecutor.js';
import { Executor } from '../runtime/Executor.js';
import type { ExecutionConfig } from '../runtime/executionConfig.js';
import type { OperationStore } from '../runtime/idempotency/OperationStore.js';
import type { RetryBudget } from '../runtime/retry/RetryBudget.js';
import type { ClientPolicies } from '../runtime/retry/client/ClientPolicies.js';
import type { ToolExecutor } from '../runtime/ToolExecutor.js';

export interface ExecutorContext {
  readonly transport: Transport;
  readonly clock: Clock;
  /** The execution layer's own stream (jitter, keys). */
  readonly rng: Rng;
  /** The stacked SDK layer's stream (its jitter), drawn only when `layers.sdkRetries` is set. */
  readonly sdkRng: Rng;
  readonly history: History;
  /** Shared by every executor of the trial, so request ids are unique on the wire. */
  readonly ids: IdSource;
  /** When this caller starts: its task deadline counts from here. */
  readonly startMs: number;
  /** The reference runtime's operation records (default: a fresh in-memory store); libraries keep none. */
  readonly store?: OperationStore;
  /** The reference runtime's retry budget, shared by every executor of a task (R11). */
  readonly budget?: RetryBudget;
  /** The reference runtime's client-wide overload policies, shared by every executor of the trial. */
  readonly policies?: ClientPolicies;
}

/**
 * The execution layer under `config`: the reference `Executor` or a library adapter, over
 * the tool's SDK retrying on its own when the configuration stacks that layer (R10). The
 * agent's own layer (`layers.agentRepeats`) sits above, with the agent: see `AgentRepeats`.
 * A library configuration reads global timers and `Math.random`: run its calls under
 * `installVirtualTimers(clock, { mode: 'library', random })`.
 */
export async function executorFor(config: ExecutionConfig, ctx: ExecutorContext): Promise<ToolExecutor> {
  const { sdkRetries } = config.layers;
  const transport =
    sdkRetries > 0
      ? new ClientRetries(ctx.transport, { maxRetries: sdkRetries, clock: ctx.clock, rng: ctx.sdkRng })
      : ctx.transport;
  const common = { transport, clock: ctx.clock, rng: ctx.rng, history: ctx.history, ids: ctx.ids };
  switch (config.kind) {
    case 'runtime':
      // Object.assign, not `{ ...common, config, … }`: V8 (Node 20) makes a new map for each key added after a
      // leading spread (≈ 1 µs a key), once per agent.
      return new Executor(
        Object.assign(
          {},
          common,
          { config: config.retry, startMs: ctx.startMs },
          ctx.store && { store: ctx.store },
          ctx.budget && { budget: ctx.budget },
          ctx.policies && { policies: ctx.policies },
        ),
      );
    case 'cockatiel':
    case 'p-retry':
      return createLibraryExecutor(config.library, common);
  }
}
