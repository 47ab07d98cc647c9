import {
  type Clock,
  type ErrorData,
  type ErrorKind,
  type GiveUpReason,
  type History,
  type IdSource,
  type Rng,
  type ToolContract,
  type Transport,
} from '../../core/index.js';
import { attemptEndEvent } from '../attemptEndEvent.js';
import { attemptEvent, attemptRequest } from '../attemptEvent.js';
import { classifyError } from '../classify.js';
import { contractNamed } from '../contractNamed.js';
import { argumentsMismatch } from '../executorErrors.js';
import { outcomeEvent } from '../outcomeEvent.js';
import { toolCallEvent } from '../toolCallEvent.js';
import { errorFeedback } from '../feedback/structured.js';
import { newIdempotencyKey } from '../idempotency/idempotencyKey.js';
import type { ToolResult } from '../result.js';
import { SignalPool } from '../SignalPool.js';
import { sendAttempt } from '../sendAttempt.js';
import type { CallOptions, ToolExecutor } from '../ToolExecutor.js';
import { AttemptFailed } from './AttemptFailed.js';
import type { RetryDriver } from './RetryDriver.js';

export interface LibraryExecutorOptions {
  readonly transport: Transport;
  readonly driver: RetryDriver;
  readonly clock: Clock;
  /** Only idempotency keys come from it: the library's own randomness is `Math.random` (see `installVirtualTimers`' `random` option). */
  readonly rng: Rng;
  readonly history: History;
  readonly ids: IdSource;
  /** The caller's own timeout per attempt; `null` waits forever. */
  readonly timeoutMs: number | null;
  /** Kinds the library's filter retries; `undefined`: every error, as `handleAll` and p-retry do by default. */
  readonly retryOn?: readonly ErrorKind[];
}

/** The library's retry filter: every error, or the attempts whose kind `retryOn` lists. */
export function libraryRetries(retryOn: readonly ErrorKind[] | undefined): (error: unknown) => boolean {
  if (retryOn === undefined) return () => true;
  return (error) => error instanceof AttemptFailed && retryOn.includes(error.error.kind);
}

/** What a third-party library throws when its own circuit breaker refuses (cockatiel's `BrokenCircuitError`). */
function libraryError(error: unknown, nowMs: number): ErrorData {
  if (error instanceof AttemptFailed) return error.error;
  if (error instanceof Error && error.name === 'BrokenCircuitError') {
    return { kind: 'unavailable', message: error.message, retryable: true, code: 'ECIRCUITOPEN' };
  }
  return classifyError(error, nowMs);
}

/**
 * An execution layer whose retries a third-party library decides (cockatiel, p-retry), with
 * faultline's wire, classifier and history around it: the same events as the reference
 * `Executor` (`tool_call`, `attempt`, `attempt_end`, `retry_wait` where the library says,
 * `give_up`, `outcome`), so the same metrics and checkers judge it. Writes carry one
 * idempotency key per logical call. It keeps no operation records: an uncertain failure
 * is reported as an error, which is what a plain library wrapper does.
 */
export class LibraryExecutor implements ToolExecutor {
  readonly tools: readonly ToolContract[];
  readonly #o: LibraryExecutorOptions;
  /** Forked at the first key minted: a fork depends on the seed and its label alone, and a reader mints none. */
  #keyRng: Rng | undefined;
  readonly #signals = SignalPool.shared;

  constructor(options: LibraryExecutorOptions) {
    this.#o = options;
    this.tools = options.transport.tools;
  }

  async call(tool: string, input: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const { history, clock, ids, transport, driver } = this.#o;
    const call = ids.next('call');
    const contract = contractNamed(this.tools, tool);
    history.stamp(toolCallEvent(call, tool, contract, input, options));
    if (!contract)
      return this.#failed(
        call,
        tool,
        input,
        0,
        { kind: 'not_found', message: `there is no tool named "${tool}"`, retryable: false },
        'not_retryable',
      );
    const parsed = contract.input.safeParse(input);
    if (!parsed.success) return this.#failed(call, tool, input, 0, argumentsMismatch(tool), 'not_retryable');
    const key =
      contract.risk === 'read'
        ? undefined
        : newIdempotencyKey((this.#keyRng ??= this.#o.rng.fork('runtime:idempotency-keys')));
    let attempts = 0;
    const attempt = async (signal?: AbortSignal): Promise<unknown> => {
      attempts++;
      const request = ids.next('req');
      history.stamp(attemptEvent(call, attempts, tool, request, key, undefined));
      const timeout = this.#o.timeoutMs ?? undefined;
      const sent = signal?.aborted
        ? { kind: 'error' as const, error: signal.reason as unknown }
        : await sendAttempt(
            transport,
            clock,
            attemptRequest(request, tool, parsed.data, call, attempts, key),
            timeout,
            this.#signals,
          );
      if (sent.kind === 'ok') {
        history.stamp(attemptEndEvent(call, attempts, request, undefined));
        return sent.value;
      }
      const error = classifyError(sent.error, clock.now());
      history.stamp(attemptEndEvent(call, attempts, request, error));
      throw new AttemptFailed(error, sent.error);
    };
    try {
      const value = await driver.execute(attempt, {
        onWait: (ms) => history.record({ type: 'retry_wait', call, attempt: attempts, ms, reason: 'backoff' }),
      });
      const result: ToolResult = { kind: 'ok', call, tool, attempts, value };
      history.stamp(outcomeEvent(call, tool, result, undefined, undefined));
      return result;
    } catch (thrown) {
      const error = libraryError(thrown, clock.now());
      return this.#failed(
        call,
        tool,
        input,
        attempts,
        error,
        libraryRetries(this.#o.retryOn)(thrown) ? 'max_attempts' : 'not_retryable',
      );
    }
  }

  #failed(
    call: string,
    tool: string,
    input: unknown,
    attempts: number,
    error: ErrorData,
    reason: GiveUpReason,
  ): ToolResult {
    const { history } = this.#o;
    if (attempts > 0) history.record({ type: 'give_up', call, reason, error });
    history.stamp({ seq: 0, t: 0, type: 'outcome', call, tool, result: 'error', attempts, error });
    return { kind: 'error', call, tool, attempts, error: errorFeedback({ error, input, attempts }) };
  }
}
