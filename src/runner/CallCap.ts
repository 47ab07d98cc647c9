import type { ToolContract } from '../core/index.js';
import type { CallOptions, ToolExecutor } from '../runtime/ToolExecutor.js';
import type { ToolResult } from '../runtime/result.js';

/**
 * The harness's backstop against an agent that calls tools forever: past `limit` calls,
 * every call stays pending, the trial goes idle, and the clock ends it. The budget
 * checker judges the calls made before that.
 */
export class CallCap implements ToolExecutor {
  #calls = 0;
  tripped = false;

  constructor(
    private readonly inner: ToolExecutor,
    private readonly limit: number,
  ) {}

  get tools(): readonly ToolContract[] {
    return this.inner.tools;
  }

  call(tool: string, input: unknown, options?: CallOptions): Promise<ToolResult> {
    if (++this.#calls > this.limit) {
      this.tripped = true;
      return new Promise<never>(() => {});
    }
    return this.inner.call(tool, input, options);
  }
}
