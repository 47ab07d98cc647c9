import type { Clock, History, IdSource, Rng, Transport } from '../../core/index.js';
import { ClientRetries } from '../../faults/ClientRetries.js';
import { createLibraryExecutor } from '../../runtime/adapters/createLibraryExecutor.js';
import { Executor } from '../../runtime/Executor.js';
import type { ToolExecutor } from '../../runtime/ToolExecutor.js';
import type { ContentionConfig } from './ContentionConfig.js';

export interface ClientContext {
  readonly wire: Transport;
  readonly clock: Clock;
  /** The agent's own stream: its jitter and keys do not shift when another agent draws. */
  readonly rng: Rng;
  readonly history: History;
  /** Shared by every agent of the trial, so request ids are unique on the wire. */
  readonly ids: IdSource;
  /** When this agent starts: its task deadline counts from here. */
  readonly startMs: number;
}

/**
 * One agent's execution layer under `config`: the reference runtime or a library adapter,
 * over the tool's SDK retrying on its own when the configuration stacks that layer.
 */
export async function createClient(config: ContentionConfig, ctx: ClientContext): Promise<ToolExecutor> {
  const { sdkRetries } = config.layers;
  const transport = sdkRetries > 0 ? new ClientRetries(ctx.wire, { maxRetries: sdkRetries, clock: ctx.clock, rng: ctx.rng.fork('sdk') }) : ctx.wire;
  const common = { transport, clock: ctx.clock, rng: ctx.rng.fork('runtime'), history: ctx.history, ids: ctx.ids };
  switch (config.kind) {
    case 'runtime':
      return new Executor({ ...common, config: config.retry, startMs: ctx.startMs });
    case 'cockatiel':
    case 'p-retry':
      return createLibraryExecutor(config.library, common);
  }
}
