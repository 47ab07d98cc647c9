import type { Clock, History, IdSource, Rng, Transport } from '../../core/index.js';
import type { ToolExecutor } from '../../runtime/ToolExecutor.js';
import { executorFor } from '../executorFor.js';
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

/** One agent's execution layer under `config`, built by the one factory `run` uses too. */
export const createClient = (config: ContentionConfig, ctx: ClientContext): Promise<ToolExecutor> =>
  executorFor(config, { transport: ctx.wire, clock: ctx.clock, rng: ctx.rng.fork('runtime'), sdkRng: ctx.rng.fork('sdk'), history: ctx.history, ids: ctx.ids, startMs: ctx.startMs });
