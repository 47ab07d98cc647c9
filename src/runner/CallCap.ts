import type { Clock, ToolContract } from '../core/index.js';
import type { CallOptions, ToolExecutor } from '../runtime/ToolExecutor.js';
import type { ToolResult } from '../runtime/result.js';

/**
 * The harness's backstop against an agent that calls tools forever: past `limit` calls,
 * every call stays pending, the trial goes idle, and the clock ends it. The budget
 * checker judges the calls made before that.
 *
 * Each call starts in a turn of the clock of its own (`Clock.nextTurn`, the agent's index its lane): calls that agents
 * (or one agent's concurrent chains) make at one virtual instant run one after another, in the order of what scheduled
 * them, however many microtask hops each took to get here (docs/determinism.md, "One order at one virtual instant").
 */
export class CallCap implements ToolExecutor {
  #calls = 0;
  tripped = false;

  constructor(
    private readonly inner: ToolExecutor,
    private readonly limit: number,
    private readonly clock?: Clock,
    /** The agent's index in a crowd (0 alone). */
    private readonly lane = 0,
  ) {}

  get tools(): readonly ToolContract[] {
    return this.inner.tools;
  }

  call(tool: string, input: unknown, options?: CallOptions): Promise<ToolResult> {
    if (++this.#calls > this.limit) {
      this.tripped = true;
      return new Promise<never>(() => {});
    }
    const turn = this.clock?.nextTurn?.(this.lane);
    return turn ? turn.then(() => this.inner.call(tool, input, options)) : this.inner.call(tool, input, options);
  }
}
