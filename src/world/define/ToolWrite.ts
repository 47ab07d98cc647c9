import type { WriteSteps } from '../services/Operations.js';
import type { ServiceContext, ToolDefinition } from './ToolDefinition.js';

/** What every write of one tool shares: made once per tool by its service instance. */
export interface ToolWriter<S, O> {
  readonly tool: Pick<ToolDefinition<S, O, unknown>, 'check'>;
  /** The tool's answer to `input` (its run, its output checked). */
  readonly answer: (input: unknown, ctx: ServiceContext<S, O>) => Promise<unknown>;
  /** Keeps what a write with a business key answered, for status queries (R21). */
  readonly committed: (key: string, value: unknown) => void;
  /** After the commit, answered or thrown: past states kept for stale reads. */
  readonly settled: () => void;
}

/**
 * One write's steps as `Operations.write` runs them (it calls them as methods): one object per write, where an
 * object literal with a closure per step, and the context they shared, cost a 1,000-agent crowd three allocations
 * per delivery. The commit awaits what it always awaited, once.
 */
export class ToolWrite<S, O> implements WriteSteps<unknown> {
  readonly #writer: ToolWriter<S, O>;
  readonly #input: unknown;
  readonly #ctx: ServiceContext<S, O>;
  readonly #key: string | undefined;

  constructor(writer: ToolWriter<S, O>, input: unknown, ctx: ServiceContext<S, O>, key: string | undefined) {
    this.#writer = writer;
    this.#input = input;
    this.#ctx = ctx;
    this.#key = key;
  }

  check(): void {
    this.#writer.tool.check?.(this.#input, this.#ctx);
  }

  async commit(): Promise<unknown> {
    try {
      const value = await this.#writer.answer(this.#input, this.#ctx);
      if (this.#key !== undefined) this.#writer.committed(this.#key, value);
      return value;
    } finally {
      this.#writer.settled();
    }
  }
}
