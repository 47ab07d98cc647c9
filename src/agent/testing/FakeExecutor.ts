import { z } from 'zod';
import type { Clock, ErrorKind, ToolContract } from '../../core/index.js';
import type { ToolErrorFeedback, ToolResult, UnknownResult } from '../../runtime/result.js';
import type { CallOptions, ToolExecutor } from '../../runtime/ToolExecutor.js';

/** A scripted answer, without the ids the executor fills in. */
export type FakeAnswer =
  | { readonly kind: 'ok'; readonly value: unknown; readonly attempts?: number }
  | { readonly kind: 'error'; readonly error: ToolErrorFeedback; readonly attempts?: number }
  | { readonly kind: 'unknown'; readonly unknown: UnknownResult; readonly attempts?: number };

export const ok = (value: unknown = {}): FakeAnswer => ({ kind: 'ok', value });

export const fail = (
  error_type: ErrorKind,
  more: { retryable?: boolean; retry_after_ms?: number; attempts?: number; message?: string } = {},
): FakeAnswer => ({
  kind: 'error',
  attempts: more.attempts ?? 1,
  error: {
    error_type,
    message: more.message ?? `${error_type} happened`,
    retryable: more.retryable ?? false,
    ...(more.retry_after_ms === undefined ? {} : { retry_after_ms: more.retry_after_ms }),
    arguments: {},
    attempts: more.attempts ?? 1,
    next_actions: ['stop'],
  },
});

export const unknownOutcome = (
  operation_id: string,
  next_action: UnknownResult['next_action'] = 'query_operation_status',
): FakeAnswer => ({
  kind: 'unknown',
  unknown: {
    operation_id,
    status: 'unknown',
    error_code: 'timeout',
    execution_confirmed: false,
    retry_allowed: false,
    next_action,
    message: 'the call timed out; it may have happened',
  },
});

export interface FakeCall {
  readonly call: string;
  readonly tool: string;
  readonly input: unknown;
  readonly options: CallOptions;
  /** Virtual time of the call. */
  readonly at: number;
}

const contract = (name: string): ToolContract => ({
  name,
  description: `fake ${name}`,
  risk: 'write',
  input: z.unknown(),
  honoursIdempotencyKeys: true,
  canQueryStatus: true,
});

/**
 * An executor that answers from per-tool queues, for testing agents without a runtime.
 * Running out of answers throws: the test's script was too short.
 */
export class FakeExecutor implements ToolExecutor {
  readonly tools: readonly ToolContract[];
  readonly calls: FakeCall[] = [];
  readonly #queues: Map<string, FakeAnswer[]>;

  constructor(
    private readonly clock: Clock,
    answers: Readonly<Record<string, readonly FakeAnswer[]>>,
  ) {
    this.#queues = new Map(Object.entries(answers).map(([tool, list]) => [tool, [...list]]));
    this.tools = [...this.#queues.keys()].map(contract);
  }

  /** `tool(input)` per call, compact for exact expectations. */
  get trace(): string[] {
    return this.calls.map((c) => `${c.at} ${c.tool}(${JSON.stringify(c.input)})`);
  }

  call(tool: string, input: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const call = `call-${this.calls.length + 1}`;
    this.calls.push({ call, tool, input, options, at: this.clock.now() });
    const answer = this.#queues.get(tool)?.shift();
    if (!answer) return Promise.reject(new Error(`FakeExecutor: no answer left for ${tool}`));
    return Promise.resolve({ ...answer, call, tool, attempts: answer.attempts ?? 1 });
  }
}
