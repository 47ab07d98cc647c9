import { type ErrorData, type GiveUpReason, type Rng, type ToolContract, type WireRequest } from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';
import { extraHops, hopSeam } from '../core/extraHops.js';
import { attemptEndEvent } from './attemptEndEvent.js';
import { attemptEvent, attemptRequest } from './attemptEvent.js';
import { auditCall } from './auditCall.js';
import { BUDGET_STOPS, budgetSpent } from './budgetSpent.js';
import { classifyError } from './classify.js';
import { contractNamed } from './contractNamed.js';
import { argumentsMismatch, deadlinePassed, DIED_WAITING, heldByRetryAfter, noSuchTool } from './executorErrors.js';
import { fieldErrors } from './fieldErrors.js';
import { failedCall, type Finished } from './Finished.js';
import { InMemoryOperationStore } from './idempotency/InMemoryOperationStore.js';
import { newIdempotencyKey } from './idempotency/idempotencyKey.js';
import type { OperationRecord } from './idempotency/OperationRecord.js';
import type { OperationStore } from './idempotency/OperationStore.js';
import { OperationBook } from './OperationBook.js';
import { outcomeEvent } from './outcomeEvent.js';
import {
  QUERY_OPERATION_STATUS,
  QueryOperationStatusInputSchema,
  queryOperationStatusTool,
} from './queryOperationStatusTool.js';
import { Reconciler } from './Reconciler.js';
import type { ToolResult } from './result.js';
import { CircuitBreakerTransport } from './retry/CircuitBreakerTransport.js';
import { clientPoliciesFor, type ClientPolicies } from './retry/client/ClientPolicies.js';
import { ClientThrottledError } from './retry/client/ClientThrottledError.js';
import { Deadline } from './retry/Deadline.js';
import { decideRetry, type RetryContext } from './retry/decideRetry.js';
import type { RetryBudget } from './retry/RetryBudget.js';
import { retryBudgetFor } from './retry/retryBudgetFor.js';
import { sendAttempt, type AttemptResult } from './sendAttempt.js';
import { SignalPool } from './SignalPool.js';
import type { ExecutorOptions } from './ExecutorOptions.js';
import type { CallOptions, ToolExecutor } from './ToolExecutor.js';
import { toolCallEvent } from './toolCallEvent.js';
import { isUncertain } from './uncertain.js';

export type { ExecutorOptions } from './ExecutorOptions.js';

/**
 * The reference execution layer: validates, classifies, retries within the configuration's
 * discipline, keeps operation records, reconciles unknown outcomes and returns structured
 * results. Every decision is recorded in the history, so checkers can judge it.
 */
export class Executor implements ToolExecutor {
  readonly tools: readonly ToolContract[];
  readonly store: OperationStore;
  readonly budget: RetryBudget;
  readonly policies: ClientPolicies;
  readonly #o: ExecutorOptions;
  readonly #deadline: Deadline;
  /**
   * Separate streams, so minting a key never shifts a jitter draw. Forked at first use: a fork
   * depends on the seed and its label alone, and most calls never draw jitter, many mint no key.
   */
  #jitter: Rng | undefined;
  #keys: Rng | undefined;
  /**
   * Per tool, the moment a server's Retry-After ends (R9). It outlives the call that received it:
   * the next call of the same tool waits too, as the retry-discipline checker expects. Per tool,
   * not per service, because that is the scope the checker and the fault plans speak of. Made at the first
   * Retry-After honoured: most executors (one per agent of a crowd) never meet one.
   */
  #retryAfterUntil: Map<string, number> | undefined;
  readonly #signals = SignalPool.shared;
  /** See `#retryContext`. */
  #decision: Mutable<RetryContext> | undefined;
  /** Made at first use: most executors (one per agent of a crowd) keep no record and reconcile nothing. */
  #records: OperationBook | undefined;
  #reconciler: Reconciler | undefined;

  constructor(options: ExecutorOptions) {
    // The breaker sits between the retries and the wire, so a refused send never leaves (cockatiel's wrap(retry, breaker)).
    this.#o = options.config.circuitBreaker
      ? {
          ...options,
          transport: new CircuitBreakerTransport(options.transport, options.config.circuitBreaker, options.clock),
        }
      : options;
    const tools: ToolContract[] = [];
    for (const t of options.transport.tools) if (t.name !== QUERY_OPERATION_STATUS) tools.push(t);
    tools.push(queryOperationStatusTool);
    this.tools = tools;
    this.store = options.store ?? new InMemoryOperationStore();
    this.budget = options.budget ?? retryBudgetFor(options.config, options.clock);
    this.policies =
      options.policies ?? clientPoliciesFor(options.config, options.clock, options.rng.fork('runtime:client-policies'));
    this.#deadline = new Deadline(options.clock, options.startMs, options.config.deadlineMs);
  }

  get #jitterRng(): Rng {
    return (this.#jitter ??= this.#o.rng.fork('runtime:backoff'));
  }

  get #keyRng(): Rng {
    return (this.#keys ??= this.#o.rng.fork('runtime:idempotency-keys'));
  }

  get #book(): OperationBook {
    const { history, clock, ids } = this.#o;
    return (this.#records ??= new OperationBook(this.store, history, clock, ids));
  }

  get #reconcile(): Reconciler {
    return (this.#reconciler ??= new Reconciler(
      this.#o,
      this.#deadline,
      this.#signals,
      this.#book,
      this.store,
      this.tools,
    ));
  }

  /**
   * Starts this executor as the successor of a process that died (R22, R25): every record
   * the store holds as `pending` (the process died waiting) or `unknown` is marked unknown
   * and, if the configuration reconciles and the tool answers status queries, settled by a
   * status query (R21), never by resending. Afterwards, a call that repeats one of the earlier
   * operations (same tool, same arguments) is answered once from its definite record instead
   * of being submitted again, so an agent that replays its plan from the start does not
   * repeat what already happened. Call it before the agent's first call; returns the records
   * as they stand after reconciliation. With a store that died with the process (in memory),
   * there is nothing to resume from.
   */
  async resume(options: CallOptions = {}): Promise<readonly OperationRecord[]> {
    for (const record of await this.store.list()) {
      if (record.state !== 'pending' && record.state !== 'unknown') continue;
      if (record.state === 'pending')
        await this.#book.settle(record, record.call, { state: 'unknown', error: DIED_WAITING });
      if (this.#o.config.reconcile && contractNamed(this.tools, record.tool)?.canQueryStatus) {
        await this.call(QUERY_OPERATION_STATUS, { operation_id: record.op }, options);
      }
    }
    const records = await this.store.list();
    this.#book.keepJournal(records);
    return records;
  }

  async call(tool: string, input: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const { history, clock, ids } = this.#o;
    const call = ids.next('call');
    const started = clock.now();
    const contract = contractNamed(this.tools, tool);
    history.stamp(toolCallEvent(call, tool, contract, input, options));
    const done = await this.#dispatch(call, tool, contract, input);
    const { result } = done;
    history.stamp(outcomeEvent(call, tool, result, done.error, done.op));
    auditCall(this.#o, done, options, clock.now() - started);
    return result;
  }

  /** Not async: the attempt loop's own promise (or a finished value) goes back to `call`, with no promise adopting it. */
  #dispatch(
    call: string,
    tool: string,
    contract: ToolContract | undefined,
    input: unknown,
  ): Finished | Promise<Finished> {
    if (!contract) {
      const error = noSuchTool(tool, this.tools.map((t) => t.name).join(', '));
      return failedCall(call, tool, input, 0, error, { nextActions: ['use_another_tool'] });
    }
    const parsed = contract.input.safeParse(input);
    if (!parsed.success) {
      const error = argumentsMismatch(tool);
      return failedCall(call, tool, input, 0, error, { fieldErrors: fieldErrors(parsed.error, input) });
    }
    if (contract === queryOperationStatusTool) {
      return this.#reconcile.queryTool(call, input, QueryOperationStatusInputSchema.parse(input).operation_id);
    }
    return this.#execute(call, contract, input, parsed.data);
  }

  /** The attempt loop of one logical call: each attempt sent, its failure classified, then retried or given up. */
  async #execute(call: string, contract: ToolContract, input: unknown, args: unknown): Promise<Finished> {
    const { config, history, clock, ids } = this.#o;
    const tool = contract.name;
    const journaled = contract.risk === 'read' ? undefined : this.#records?.fromJournal(tool, args);
    if (journaled) return this.#book.replay(call, journaled, input);
    const keys = contract.risk === 'read' ? 'none' : config.idempotency.keys;
    let key = keys === 'none' ? undefined : newIdempotencyKey(this.#keyRng);
    let record =
      contract.risk !== 'read' && config.operationRecords
        ? await this.#book.open(call, contract, args, key)
        : undefined;
    if (record) key = record.idempotencyKey;
    // A reused record whose earlier outcome is unknown stays uncertain whatever this call sees.
    let uncertain = record?.state === 'unknown';
    let attempts = 0;
    let previousDelayMs = 0;
    // The last failure and what was thrown for it: two locals, not an object per failed attempt.
    let lastError: ErrorData | undefined;
    let lastRaw: unknown;
    /** What the client's retry quota took for the last retry: refunded if the call succeeds. */
    let quotaCost: number | undefined;
    for (;;) {
      const wait = this.#beforeAttempt(call, tool, attempts, lastError);
      if (typeof wait !== 'number') {
        lastError = wait;
        break;
      }
      if (wait > 0) await clock.sleep(wait);
      if (++attempts > 1 && keys === 'per-attempt') {
        key = newIdempotencyKey(this.#keyRng);
        if (record) record = (await this.store.update(record.op, { idempotencyKey: key }, clock.now())) ?? record;
      }
      if (hopSeam.at) await extraHops('runtime:attempt');
      const request = ids.next('req');
      history.stamp(attemptEvent(call, attempts, tool, request, key, record?.op));
      const refused = this.#refusedLocally(attempts);
      const sent: AttemptResult = refused
        ? { kind: 'error', error: refused }
        : await this.#send(attemptRequest(request, tool, args, call, attempts, key));
      if (hopSeam.at) await extraHops('runtime:answer');
      if (sent.kind === 'ok') return this.#succeeded(call, tool, attempts, request, quotaCost, record, sent.value);
      const local = refused !== undefined;
      lastError = this.#attemptFailed(call, tool, attempts, request, sent.error, local);
      lastRaw = sent.error;
      uncertain ||= isUncertain(lastError);
      const decision = decideRetry(this.#retryContext(lastError, attempts, contract, key, previousDelayMs, local));
      if (decision.kind === 'stop') {
        lastError = this.#gaveUp(call, lastError, decision.reason);
        break;
      }
      this.#retryWait(call, attempts, decision.delayMs, decision.reason);
      await clock.sleep(decision.delayMs);
      previousDelayMs = decision.delayMs;
      quotaCost = decision.quotaCost;
    }
    if (record && uncertain) return this.#reconcile.unresolved(call, contract, record, lastError, attempts, lastRaw);
    if (record) await this.#book.settle(record, call, { state: 'failed', error: lastError });
    return { ...failedCall(call, tool, input, attempts, lastError), ...(record && { op: record.op }), raw: lastRaw };
  }

  /**
   * Whether the call may send its next attempt: the ms a tool's Retry-After hold makes it wait first (0: none), with
   * its `retry_wait` recorded, or the error it gives up with at the deadline or on a hold too long to honour.
   */
  #beforeAttempt(call: string, tool: string, attempts: number, lastError: ErrorData | undefined): ErrorData | number {
    if (this.#deadline.expired()) return this.#giveUpAtDeadline(call, lastError);
    const held = (this.#retryAfterUntil?.get(tool) ?? 0) - this.#o.clock.now();
    if (held <= 0) return 0;
    // A wait the configuration would not honour within a call is not honoured across calls either: the call is not sent.
    if (held > this.#o.config.retryAfter.maxMs || !this.#deadline.allowsWait(held))
      return this.#giveUpOnHeld(call, tool, held, lastError);
    this.#retryWait(call, attempts, held, 'retry_after');
    return held;
  }

  /** The client's adaptive throttle, asked before each attempt: the error it refuses the attempt with, or none. */
  #refusedLocally(attempts: number): ClientThrottledError | undefined {
    const { throttle, ratio } = this.policies;
    if (attempts === 1) ratio?.deposit();
    const p = throttle?.rejectProbability ?? 0;
    return throttle?.admit() === false ? new ClientThrottledError(p) : undefined;
  }

  /** One attempt on the wire, under the per-call timeout cut short by the task deadline. */
  #send(request: WireRequest): Promise<AttemptResult> {
    const { transport, clock, config } = this.#o;
    return sendAttempt(
      transport,
      clock,
      request,
      this.#deadline.attemptTimeoutMs(config.perCallTimeoutMs),
      this.#signals,
    );
  }

  /**
   * A successful attempt: the throttle and the retry quota learn of it, its `attempt_end` is recorded, and the call
   * ends ok, its record settled first if it keeps one (a value, not a promise, when it keeps none).
   */
  #succeeded(
    call: string,
    tool: string,
    attempts: number,
    request: string,
    quotaCost: number | undefined,
    record: OperationRecord | undefined,
    value: unknown,
  ): Finished | Promise<Finished> {
    this.policies.throttle?.record(true);
    this.policies.quota?.succeeded(quotaCost);
    this.#o.history.stamp(attemptEndEvent(call, attempts, request, undefined));
    const result: ToolResult = { kind: 'ok', call, tool, attempts, value };
    if (!record) return { result };
    return this.#book
      .settle(record, call, { state: 'succeeded', result: value })
      .then(() => ({ result, op: record.op }));
  }

  /** The call stops retrying: its `give_up` recorded; the error it ends with (a spent budget's own). */
  #gaveUp(call: string, error: ErrorData, reason: GiveUpReason): ErrorData {
    this.#o.history.stamp({ seq: 0, t: 0, type: 'give_up', call, reason, error });
    return BUDGET_STOPS.has(reason) ? budgetSpent(error, reason) : error;
  }

  #retryWait(call: string, attempt: number, ms: number, reason: 'backoff' | 'retry_after'): void {
    this.#o.history.stamp({ seq: 0, t: 0, type: 'retry_wait', call, attempt, ms, reason });
  }

  /** Gives the call up at the task's deadline: the error it ends with. */
  #giveUpAtDeadline(call: string, lastError: ErrorData | undefined): ErrorData {
    const error = lastError ?? deadlinePassed();
    this.#o.history.stamp({ seq: 0, t: 0, type: 'give_up', call, reason: 'deadline', error });
    return error;
  }

  /** Gives the call up, unsent, when an earlier Retry-After holds the tool longer than the call may wait: the error it ends with. */
  #giveUpOnHeld(call: string, tool: string, held: number, lastError: ErrorData | undefined): ErrorData {
    const error = lastError ?? heldByRetryAfter(tool, held);
    this.#o.history.stamp({ seq: 0, t: 0, type: 'give_up', call, reason: 'retry_after_exceeds_deadline', error });
    return budgetSpent(error, 'retry_after_exceeds_deadline');
  }

  /** A failed attempt, classified and recorded; the throttle and the tool's Retry-After hold learn from it. */
  #attemptFailed(
    call: string,
    tool: string,
    attempt: number,
    request: string,
    raw: unknown,
    throttledLocally: boolean,
  ): ErrorData {
    const { config, history, clock } = this.#o;
    const error = classifyError(raw, clock.now());
    if (!throttledLocally) this.policies.throttle?.record(!OVERLOAD_KINDS.has(error.kind));
    history.stamp(attemptEndEvent(call, attempt, request, error));
    if (error.retryAfterMs !== undefined && config.retryAfter.mode === 'honour') {
      const until = (this.#retryAfterUntil ??= new Map());
      until.set(tool, Math.max(until.get(tool) ?? 0, clock.now() + error.retryAfterMs));
    }
    return error;
  }

  /**
   * The context of one retry decision, in one object per executor rewritten for each decision rather than one per
   * failed attempt: `decideRetry` reads it synchronously and keeps nothing of it. The keys in the order the literal had.
   */
  #retryContext(
    error: ErrorData,
    attempts: number,
    contract: ToolContract,
    key: string | undefined,
    previousDelayMs: number,
    throttledLocally: boolean,
  ): RetryContext {
    const honouredKey = key !== undefined && contract.honoursIdempotencyKeys;
    const risk = contract.risk;
    const clientRetries = contract.clientRetries ?? 0;
    // Made at the first decision, so the jitter stream is forked only by an executor that retries.
    const ctx = (this.#decision ??= {
      config: this.#o.config,
      error,
      attempts,
      risk,
      honouredKey,
      clientRetries,
      previousDelayMs,
      deadline: this.#deadline,
      budget: this.budget,
      rng: this.#jitterRng,
      client: this.policies,
      throttledLocally,
    });
    ctx.error = error;
    ctx.attempts = attempts;
    ctx.risk = risk;
    ctx.honouredKey = honouredKey;
    ctx.clientRetries = clientRetries;
    ctx.previousDelayMs = previousDelayMs;
    ctx.throttledLocally = throttledLocally;
    return ctx;
  }
}

/** Answers that say the backend did not accept the request (SRE adaptive throttling's `accepts` leave them out). */
const OVERLOAD_KINDS: ReadonlySet<ErrorData['kind']> = new Set(['rate_limit', 'unavailable', 'timeout', 'network']);
