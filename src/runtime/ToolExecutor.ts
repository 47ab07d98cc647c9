import type { ToolContract } from '../core/index.js';
import type { ToolResult } from './result.js';

export interface CallOptions {
  /** Who is calling (an agent, a sub-agent): all callers of one trial share one retry budget (R11). */
  readonly caller?: string;
  /** The model turn that proposed the call, for the history. */
  readonly turn?: number;
}

/**
 * The execution layer as the agent sees it: tools by name, one logical call at a time.
 * The reference `Executor` implements it; so can a user's own runtime.
 */
export interface ToolExecutor {
  /** The tools the agent may call, including the execution layer's own `query_operation_status`. */
  readonly tools: readonly ToolContract[];
  call(tool: string, input: unknown, options?: CallOptions): Promise<ToolResult>;
}
