import {
  HttpError,
  canonicalJson,
  openTaskField,
  type Clock,
  type ErrorData,
  type GiveUpReason,
  type History,
  type IdSource,
  type OperationRef,
  type Rng,
  type ToolContract,
  type Transport,
} from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';
import { attemptEvent, attemptRequest } from './attemptEvent.js';
import { operationEvent } from './operationEvent.js';
import { outcomeEvent } from './outcomeEvent.js';
import { rawError, type AuditLog } from './audit.js';
import { businessKeyOf } from './businessKey.js';
import { toolCallEvent } from './toolCallEvent.js';
import { classifyError } from './classify.js';
import type { RetryConfig } from './config.js';
import { errorFeedback } from './feedback/structured.js';
import { fieldErrors } from './fieldErrors.js';
import { InMemoryOperationStore } from './idempotency/InMemoryOperationStore.js';
import { newIdempotencyKey } from './idempotency/idempotencyKey.js';
import type { OperationRecord } from './idempotency/OperationRecord.js';
import type { OperationStore } from './idempotency/OperationStore.js';
import {
  QUERY_OPERATION_STATUS,
  QueryOperationStatusInputSchema,
  queryOperationStatusTool,
} from './queryOperationStatusTool.js';
import { readStatus } from './readStatus.js';
import { redact } from './redact.js';
import type { NextAction, ToolErrorFeedback, ToolResult } from './result.js';
import { Deadline } from './retry/Deadline.js';
import { decideRetry, type RetryContext } from './retry/decideRetry.js';
import type { RetryBudget } from './retry/RetryBudget.js';
import { retryBudgetFor } from './retry/retryBudgetFor.js';
import { CircuitBreakerTransport } from './retry/CircuitBreakerTransport.js';
import { sendAttempt, type AttemptResult } from './sendAttempt.js';
import { SignalPool } from './SignalPool.js';
import { clientPoliciesFor, type ClientPolicies } from './retry/client/ClientPolicies.js';
import { ClientThrottledError } from './retry/client/ClientThrottledError.js';
import type { CallOptions, ToolExecutor } from './ToolExecutor.js';
import { isUncertain } from './uncertain.js';
import { unknownResult } from './unknownResult.js';

export interface ExecutorOptions {
  readonly transport: Transport;
  readonly config: RetryConfig;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly history: History;
  readonly ids: IdSource;
  /** The trial's start: the task deadline counts from here. */
  readonly startMs: number;
  /** Default: a fresh in-memory store. */
  readonly store?: OperationStore;
  /** Default: `config.retryBudget`. Pass one instance to every executor of a task (R11). */
  readonly budget?: RetryBudget;
  readonly audit?: AuditLog;
  /** Replaced by `[REDACTED]` in audit entries, with common secret shapes (R13). */
  readonly secrets?: readonly string[];
  /** Names the trial in audit entries. */
  readonly trial?: string;
  /**
   * Client-wide overload policies: pass one instance to every executor of a client. Default: the configuration's, for
   * this executor alone.
   */
  readonly policies?: ClientPolicies;
}

/** A status query's answer, as reconciliation reads it (R21). */
type StatusAnswer =
  | { readonly found: 'succeeded'; readonly value: unknown }
  | { readonly found: 'failed'; readonly error: ErrorData }
  | { readonly found: 'pending' | 'not_found' }
  | { readonly found: 'error'; readonly error: ErrorData };

/** How one logical call ended, with what the outcome event and the audit log need. */
interface Finished {
  readonly result: ToolResult;
  readonly error?: ErrorData;
  readonly op?: string;
  readonly raw?: unknown;
}

const FOUND_TEXT: Readonly<Record<'pending' | 'not_found' | 'error', string>> = {
  pending: 'the service reports it still pending',
  not_found: 'the service has no record of it yet, which does not prove it never arrived',
  error: 'the status query failed too',
};

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
  /** Definite records of an earlier process, answering replayed calls once each (see `resume`). */
  #journal: OperationRecord[] = [];
  readonly #signals = SignalPool.shared;
  /** See `#retryContext`. */
  #decision: Mutable<RetryContext> | undefined;

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

  /**
   * The contract of the tool named `name`, the last one of that name as a map built from `tools`
   * would hold it. A scan, not a map: a trial's executor makes a handful of calls over some
   * fifteen tools, and building the map cost more than all its lookups.
   */
  #contract(name: string): ToolContract | undefined {
    const tools = this.tools;
    for (let i = tools.length - 1; i >= 0; i--) if (tools[i]!.name === name) return tools[i];
    return undefined;
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
        await this.#settle(record, record.call, { state: 'unknown', error: DIED_WAITING });
      if (this.#o.config.reconcile && this.#contract(record.tool)?.canQueryStatus) {
        await this.call(QUERY_OPERATION_STATUS, { operation_id: record.op }, options);
      }
    }
    const records = await this.store.list();
    this.#journal = records.filter((r) => r.state === 'succeeded' || (r.state === 'failed' && r.error !== undefined));
    return records;
  }

  async call(tool: string, input: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const { history, clock, ids } = this.#o;
    const call = ids.next('call');
    const started = clock.now();
    const contract = this.#contract(tool);
    history.stamp(toolCallEvent(call, tool, contract, input, options));
    const done = await this.#dispatch(call, tool, contract, input);
    const { result } = done;
    history.stamp(outcomeEvent(call, tool, result, done.error, done.op));
    this.#audit(done, options, clock.now() - started);
    return result;
  }

  async #dispatch(call: string, tool: string, contract: ToolContract | undefined, input: unknown): Promise<Finished> {
    if (!contract) {
      const names = this.tools.map((t) => t.name).join(', ');
      const error: ErrorData = {
        kind: 'not_found',
        message: `there is no tool named "${tool}"; available tools: ${names}`,
        retryable: false,
      };
      return this.#fail(call, tool, input, 0, error, { nextActions: ['use_another_tool'] });
    }
    const parsed = contract.input.safeParse(input);
    if (!parsed.success) {
      const error: ErrorData = {
        kind: 'invalid_argument',
        message: `the arguments for ${tool} do not match its schema`,
        retryable: false,
      };
      return this.#fail(call, tool, input, 0, error, { fieldErrors: fieldErrors(parsed.error, input) });
    }
    if (contract === queryOperationStatusTool) {
      return this.#queryTool(call, input, QueryOperationStatusInputSchema.parse(input).operation_id);
    }
    return this.#execute(call, contract, input, parsed.data);
  }

  /** The attempt loop of one logical call. */
  async #execute(call: string, contract: ToolContract, input: unknown, args: unknown): Promise<Finished> {
    const { config, history, clock, ids, transport } = this.#o;
    const tool = contract.name;
    const journaled = contract.risk === 'read' ? undefined : this.#fromJournal(tool, args);
    if (journaled) return this.#replayJournal(call, journaled, input);
    const keys = contract.risk === 'read' ? 'none' : config.idempotency.keys;
    let key = keys === 'none' ? undefined : newIdempotencyKey(this.#keyRng);
    let record =
      contract.risk !== 'read' && config.operationRecords
        ? await this.#openOperation(call, contract, args, key)
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
    const { throttle, quota, ratio } = this.policies;

    for (;;) {
      if (this.#deadline.expired()) {
        lastError = this.#giveUpAtDeadline(call, lastError);
        break;
      }
      const held = (this.#retryAfterUntil?.get(tool) ?? 0) - clock.now();
      if (held > 0) {
        // A wait the configuration would not honour within a call is not honoured across calls either: the call is not sent.
        if (held > config.retryAfter.maxMs || !this.#deadline.allowsWait(held)) {
          lastError = this.#giveUpOnHeld(call, tool, held, lastError);
          break;
        }
        history.stamp({ seq: 0, t: 0, type: 'retry_wait', call, attempt: attempts, ms: held, reason: 'retry_after' });
        await clock.sleep(held);
      }
      attempts++;
      if (attempts > 1 && keys === 'per-attempt') {
        key = newIdempotencyKey(this.#keyRng);
        if (record) record = (await this.store.update(record.op, { idempotencyKey: key }, clock.now())) ?? record;
      }
      const request = ids.next('req');
      history.stamp(attemptEvent(call, attempts, tool, request, key, record?.op));
      if (attempts === 1) ratio?.deposit();
      const p = throttle?.rejectProbability ?? 0;
      const throttledLocally = throttle?.admit() === false;
      const sent: AttemptResult = throttledLocally
        ? { kind: 'error', error: new ClientThrottledError(p) }
        : await sendAttempt(
            transport,
            clock,
            attemptRequest(request, tool, args, call, attempts, key),
            this.#attemptTimeout(),
            this.#signals,
          );
      if (sent.kind === 'ok') {
        throttle?.record(true);
        quota?.succeeded(quotaCost);
        history.stamp({
          seq: 0,
          t: 0,
          type: 'attempt_end',
          call,
          attempt: attempts,
          purpose: 'call',
          request,
          result: 'ok',
        });
        if (record) await this.#settle(record, call, { state: 'succeeded', result: sent.value });
        return record
          ? { result: { kind: 'ok', call, tool, attempts, value: sent.value }, op: record.op }
          : { result: { kind: 'ok', call, tool, attempts, value: sent.value } };
      }
      const error = this.#attemptFailed(call, tool, attempts, request, sent.error, throttledLocally);
      lastError = error;
      lastRaw = sent.error;
      uncertain ||= isUncertain(error);
      const decision = decideRetry(
        this.#retryContext(
          error,
          attempts,
          contract,
          key !== undefined && contract.honoursIdempotencyKeys,
          previousDelayMs,
          throttledLocally,
        ),
      );
      if (decision.kind === 'stop') {
        history.stamp({ seq: 0, t: 0, type: 'give_up', call, reason: decision.reason, error });
        if (BUDGET_STOPS.has(decision.reason)) lastError = budgetSpent(error, decision.reason);
        break;
      }
      history.stamp({
        seq: 0,
        t: 0,
        type: 'retry_wait',
        call,
        attempt: attempts,
        ms: decision.delayMs,
        reason: decision.reason,
      });
      await clock.sleep(decision.delayMs);
      previousDelayMs = decision.delayMs;
      quotaCost = decision.quotaCost;
    }

    if (record && uncertain) return this.#unresolved(call, contract, record, lastError, attempts, lastRaw);
    if (record) await this.#settle(record, call, { state: 'failed', error: lastError });
    return { ...this.#fail(call, tool, input, attempts, lastError), ...(record && { op: record.op }), raw: lastRaw };
  }

  /** Gives the call up at the task's deadline: the error it ends with. */
  #giveUpAtDeadline(call: string, lastError: ErrorData | undefined): ErrorData {
    const error = lastError ?? {
      kind: 'timeout',
      message: 'the task deadline passed before the call could be sent',
      retryable: false,
      code: 'EDEADLINE',
    };
    this.#o.history.stamp({ seq: 0, t: 0, type: 'give_up', call, reason: 'deadline', error });
    return error;
  }

  /** Gives the call up, unsent, when an earlier Retry-After holds the tool longer than the call may wait: the error it ends with. */
  #giveUpOnHeld(call: string, tool: string, held: number, lastError: ErrorData | undefined): ErrorData {
    const error = lastError ?? {
      kind: 'rate_limit',
      message: `the server asked to wait ${held}ms before ${tool} is called again (Retry-After)`,
      retryable: false,
      retryAfterMs: held,
    };
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
    history.stamp({
      seq: 0,
      t: 0,
      type: 'attempt_end',
      call,
      attempt,
      purpose: 'call',
      request,
      result: 'error',
      error,
    });
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
    honouredKey: boolean,
    previousDelayMs: number,
    throttledLocally: boolean,
  ): RetryContext {
    const ctx = this.#decision;
    if (ctx === undefined) {
      const config = this.#o.config;
      const risk = contract.risk;
      const clientRetries = contract.clientRetries ?? 0;
      const made: Mutable<RetryContext> = {
        config,
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
      };
      this.#decision = made;
      return made;
    }
    ctx.error = error;
    ctx.attempts = attempts;
    ctx.risk = contract.risk;
    ctx.honouredKey = honouredKey;
    ctx.clientRetries = contract.clientRetries ?? 0;
    ctx.previousDelayMs = previousDelayMs;
    ctx.throttledLocally = throttledLocally;
    return ctx;
  }

  /** The first unused definite record of an earlier process for the same tool and arguments. */
  #fromJournal(tool: string, args: unknown): OperationRecord | undefined {
    if (this.#journal.length === 0) return undefined;
    const text = canonicalJson(args);
    const i = this.#journal.findIndex((r) => r.tool === tool && canonicalJson(r.input) === text);
    if (i < 0) return undefined;
    return this.#journal.splice(i, 1)[0];
  }

  /** Answers a replayed call from its record: no attempt leaves, the history says which record answered. */
  #replayJournal(call: string, record: OperationRecord, input: unknown): Finished {
    const tool = record.tool;
    this.#o.history.stamp(
      operationEvent(
        record.op,
        call,
        tool,
        record.state === 'succeeded' ? 'succeeded' : 'failed',
        record.idempotencyKey,
        record.businessKey,
      ),
    );
    if (record.state === 'failed' && record.error)
      return { ...this.#fail(call, tool, input, 0, record.error), op: record.op };
    return { result: { kind: 'ok', call, tool, attempts: 0, value: record.result }, op: record.op };
  }

  /**
   * Writes the record before the first submission (R22). A resubmission of an operation whose
   * outcome is unknown, with the same business key and parameters, reuses its record and key.
   */
  async #openOperation(
    call: string,
    contract: ToolContract,
    args: unknown,
    key: string | undefined,
  ): Promise<OperationRecord> {
    const { history, clock, ids } = this.#o;
    const tool = contract.name;
    const businessKey = businessKeyOf(contract, args);
    const prior =
      businessKey === undefined ? undefined : await this.store.findByKey({ kind: 'business', tool, key: businessKey });
    const reuse = prior?.state === 'unknown' && canonicalJson(prior.input) === canonicalJson(args);
    const now = clock.now();
    const record: OperationRecord =
      reuse && prior
        ? prior
        : {
            op: ids.next('op'),
            call,
            tool,
            input: args,
            ...(key !== undefined && { idempotencyKey: key }),
            ...(businessKey !== undefined && { businessKey }),
            state: 'pending',
            createdAt: now,
            updatedAt: now,
          };
    if (!reuse) await this.store.create(record);
    history.stamp(operationEvent(record.op, call, tool, 'recorded', record.idempotencyKey, record.businessKey));
    return record;
  }

  /** An uncertain failure of a write (R18): mark it unknown, reconcile if allowed (R21), never guess. */
  async #unresolved(
    call: string,
    contract: ToolContract,
    record: OperationRecord,
    error: ErrorData,
    attempts: number,
    raw: unknown,
  ): Promise<Finished> {
    const tool = contract.name;
    const unknown = await this.#settle(record, call, { state: 'unknown', error });
    let detail = `${error.message}, after ${attempts} attempt(s)`;
    if (this.#o.config.reconcile && contract.canQueryStatus) {
      const answer = await this.#askStatus(call, contract, unknown);
      this.#o.history.record({
        type: 'reconcile',
        call,
        op: record.op,
        found: answer.found,
        ...openTaskField(answer.found === 'succeeded' ? answer.value : undefined),
      });
      switch (answer.found) {
        case 'succeeded':
          await this.#settle(unknown, call, { state: 'succeeded', result: answer.value });
          return { result: { kind: 'ok', call, tool, attempts, value: answer.value }, op: record.op };
        case 'failed':
          await this.#settle(unknown, call, { state: 'failed', error: answer.error });
          return { ...this.#fail(call, tool, record.input, attempts, answer.error), op: record.op, raw };
        default:
          detail += `; ${FOUND_TEXT[answer.found]}`;
      }
    }
    return {
      result: { kind: 'unknown', call, tool, attempts, unknown: unknownResult(unknown, contract, error.kind, detail) },
      error,
      op: record.op,
      raw,
    };
  }

  /** `query_operation_status`: reads the record, asks the service, and maps the answer like reconciliation. */
  async #queryTool(call: string, input: unknown, opId: string): Promise<Finished> {
    const tool = QUERY_OPERATION_STATUS;
    const record = await this.store.get(opId);
    const contract = record && this.#contract(record.tool);
    if (!record || !contract) {
      const error: ErrorData = {
        kind: 'not_found',
        message: `there is no operation with id "${opId}"`,
        retryable: false,
      };
      return this.#fail(call, tool, input, 0, error, { nextActions: ['fix_arguments', 'ask_user'] });
    }
    const op = record.op;
    const done = (value: unknown, attempts: number): Finished => ({
      result: { kind: 'ok', call, tool, attempts, value: { operation_id: op, status: 'succeeded', value } },
      op,
    });
    // The query succeeded in learning that the operation failed: that is an answer, not an error of the query.
    const failed = (error: ErrorData, attempts: number): Finished => ({
      result: {
        kind: 'ok',
        call,
        tool,
        attempts,
        value: { operation_id: op, status: 'failed', error_type: error.kind, message: error.message },
      },
      op,
    });
    // A definite result is already known: asking again adds load and nothing else.
    if (record.state === 'succeeded') return done(record.result, 0);
    if (record.state === 'failed' && record.error) return failed(record.error, 0);
    const error = record.error ?? { kind: 'unknown', message: 'no definite answer was received', retryable: false };
    if (!contract.canQueryStatus) {
      return {
        result: {
          kind: 'unknown',
          call,
          tool,
          attempts: 0,
          unknown: unknownResult(record, contract, error.kind, error.message),
        },
        error,
        op,
      };
    }
    const answer = await this.#askStatus(call, contract, record);
    this.#o.history.record({
      type: 'reconcile',
      call,
      op,
      found: answer.found,
      ...openTaskField(answer.found === 'succeeded' ? answer.value : undefined),
    });
    switch (answer.found) {
      case 'succeeded':
        await this.#settle(record, call, { state: 'succeeded', result: answer.value });
        return done(answer.value, 1);
      case 'failed':
        await this.#settle(record, call, { state: 'failed', error: answer.error });
        return failed(answer.error, 1);
      default:
        return {
          result: {
            kind: 'unknown',
            call,
            tool,
            attempts: 1,
            unknown: unknownResult(record, contract, error.kind, `${error.message}; ${FOUND_TEXT[answer.found]}`),
          },
          error,
          op,
        };
    }
  }

  /** One status query on the wire (R21). Not retried: an unanswered query leaves the outcome unknown. */
  async #askStatus(call: string, contract: ToolContract, record: OperationRecord): Promise<StatusAnswer> {
    const { history, clock, ids, transport } = this.#o;
    const request = ids.next('req');
    const withKey = record.idempotencyKey === undefined ? {} : { idempotencyKey: record.idempotencyKey };
    const ref: OperationRef = {
      op: record.op,
      input: record.input,
      ...withKey,
      ...(record.businessKey !== undefined && { businessKey: record.businessKey }),
    };
    history.record({
      type: 'attempt',
      call,
      attempt: 1,
      tool: contract.name,
      purpose: 'status',
      request,
      op: record.op,
      ...withKey,
    });
    const sent = await sendAttempt(
      transport,
      clock,
      { request, tool: contract.name, purpose: 'status', input: ref, call, attempt: 1, ...withKey },
      this.#attemptTimeout(),
      this.#signals,
    );
    const status = sent.kind === 'ok' ? readStatus(sent.value) : undefined;
    if (!status) {
      const error =
        sent.kind === 'error'
          ? classifyError(sent.error, clock.now())
          : {
              kind: 'unknown' as const,
              message: 'the status answer was not an operation status',
              retryable: false,
              code: 'EMALFORMED',
            };
      history.record({ type: 'attempt_end', call, attempt: 1, purpose: 'status', request, result: 'error', error });
      return { found: 'error', error };
    }
    history.record({ type: 'attempt_end', call, attempt: 1, purpose: 'status', request, result: 'ok' });
    switch (status.state) {
      case 'succeeded':
        return { found: 'succeeded', value: status.value };
      case 'failed': {
        const error = classifyError(new HttpError(status.status, status.message), clock.now());
        return { found: 'failed', error };
      }
      default:
        return { found: status.state };
    }
  }

  /** Updates the record and tells the history; keeps the given record if the store lost it. */
  async #settle(
    record: OperationRecord,
    call: string,
    patch: { state: 'succeeded'; result: unknown } | { state: 'failed' | 'unknown'; error: ErrorData },
  ): Promise<OperationRecord> {
    const updated = (await this.store.update(record.op, patch, this.#o.clock.now())) ?? { ...record, ...patch };
    this.#o.history.stamp(
      operationEvent(record.op, call, record.tool, patch.state, updated.idempotencyKey, updated.businessKey),
    );
    return updated;
  }

  /** The per-call timeout, cut short by the task deadline. */
  #attemptTimeout(): number | undefined {
    const ms = Math.min(this.#o.config.perCallTimeoutMs ?? Infinity, this.#deadline.remainingMs());
    return Number.isFinite(ms) ? ms : undefined;
  }

  #fail(
    call: string,
    tool: string,
    input: unknown,
    attempts: number,
    error: ErrorData,
    extra: { fieldErrors?: ToolErrorFeedback['field_errors']; nextActions?: readonly NextAction[] } = {},
  ): Finished {
    return {
      result: { kind: 'error', call, tool, attempts, error: errorFeedback({ error, input, attempts, ...extra }) },
      error,
    };
  }

  #audit(done: Finished, options: CallOptions, latencyMs: number): void {
    const { audit, secrets = [], trial } = this.#o;
    if (!audit) return;
    const { result } = done;
    audit.record(
      redact(
        {
          ...(trial !== undefined && { trial }),
          call: result.call,
          ...(done.op !== undefined && { op: done.op }),
          tool: result.tool,
          ...(options.caller !== undefined && { caller: options.caller }),
          latencyMs,
          ...(done.error !== undefined && { errorKind: done.error.kind }),
          retries: Math.max(0, result.attempts - 1),
          status: result.kind,
          ...(done.raw !== undefined && { rawError: rawError(done.raw) }),
        },
        secrets,
      ),
    );
  }
}

/** What a record left `pending` by a process that died means: the answer never reached anyone (R18). */
const DIED_WAITING: ErrorData = {
  kind: 'unknown',
  message: 'the process that sent this operation stopped before its answer was recorded',
  retryable: false,
};

/** Stops that spend the task's budget: the model must not be told a retry could still help (R8, R9, R28). */
const BUDGET_STOPS: ReadonlySet<GiveUpReason> = new Set<GiveUpReason>([
  'deadline',
  'retry_after_exceeds_deadline',
  'budget',
  'client_budget',
  'client_throttled',
]);

/** Answers that say the backend did not accept the request (SRE adaptive throttling's `accepts` leave them out). */
const OVERLOAD_KINDS: ReadonlySet<ErrorData['kind']> = new Set(['rate_limit', 'unavailable', 'timeout', 'network']);

const BUDGET_STOP_TEXT: Readonly<Partial<Record<GiveUpReason, string>>> = {
  deadline: 'the next attempt would pass the task deadline',
  retry_after_exceeds_deadline: "the server's Retry-After wait would pass the task deadline",
  budget: "the task's retry budget is spent",
  client_budget: "the client's retry budget (its retry quota or retry ratio) is spent",
  client_throttled:
    "the client's adaptive throttling rejected it without sending, as the service has accepted too little of late",
};

function budgetSpent(error: ErrorData, reason: GiveUpReason): ErrorData {
  return {
    ...error,
    retryable: false,
    message: `${error.message.replace(/[.\s]+$/, '')}; not retried: ${BUDGET_STOP_TEXT[reason] ?? reason}`,
  };
}
