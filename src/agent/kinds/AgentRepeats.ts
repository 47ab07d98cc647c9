import type { ToolContract } from '../../core/index.js';
import type { ToolResult } from '../../runtime/result.js';
import type { CallOptions, ToolExecutor } from '../../runtime/ToolExecutor.js';

/**
 * The agent's own retry layer (R10, `layers.agentRepeats`): a call that comes back as an
 * error is sent again, as the same caller, up to `repeats` more times. An unknown outcome is
 * not an error, so it is not re-sent: the agent asks about it, or not, as it would anyway.
 */
export class AgentRepeats implements ToolExecutor {
  constructor(
    private readonly inner: ToolExecutor,
    private readonly repeats: number,
  ) {}

  get tools(): readonly ToolContract[] {
    return this.inner.tools;
  }

  async call(tool: string, input: unknown, options?: CallOptions): Promise<ToolResult> {
    let result = await this.inner.call(tool, input, options);
    for (let sent = 0; result.kind === 'error' && sent < this.repeats; sent++)
      result = await this.inner.call(tool, input, options);
    return result;
  }
}

/** `executor` with the agent's layer on top, or `executor` itself when there is none. */
export const withAgentRepeats = (executor: ToolExecutor, repeats: number): ToolExecutor =>
  repeats > 0 ? new AgentRepeats(executor, repeats) : executor;
