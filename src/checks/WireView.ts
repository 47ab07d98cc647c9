import type { ErrorKind, EventOf, HistoryEvent, HttpRequestFields, Risk } from '../core/index.js';

type ResponseEvent = EventOf<'response'>;

/** One request of a logical call as it crossed the wire, with its answer once there was one. */
export interface WireAttempt {
  readonly request: string;
  readonly seq: number;
  readonly t: number;
  readonly attempt: number;
  readonly purpose: 'call' | 'status';
  /**
   * The `CallTracker` rule that tied it to its call (`sdk`, `header`: the client itself said it was a retry;
   * `repeat`: the same body sent again).
   */
  readonly groupedBy: HttpRequestFields['groupedBy'];
  readonly method: string;
  readonly url: string;
  readonly idempotencyKey?: string;
  readonly bodyDigest: string;
  /** The `x-stainless-retry-count` header, when the client sent one. */
  readonly sdkRetryCount?: number;
  /** The framework the model request's `User-Agent` names, when it names one. */
  readonly framework?: string;
  /** `undefined` while no answer is recorded (the trial ended first). */
  readonly answer?: WireAnswer;
  /** Arrivals at the service's business logic (a duplicated delivery counts each copy). */
  readonly deliveries: number;
}

export interface WireAnswer {
  readonly seq: number;
  readonly t: number;
  readonly result: ResponseEvent['result'];
  readonly status?: number;
  readonly message?: string;
  readonly errorKind?: ErrorKind;
  readonly retryAfter?: string;
  readonly retryAfterMs?: number;
}

/** One logical call derived from the traffic (see `CallTracker` for the grouping rule). */
export interface WireCall {
  /** `create_order#1`. */
  readonly call: string;
  readonly tool: string;
  readonly kind: 'tool' | 'model';
  /** The route's risk; without one, by method: GET, HEAD, OPTIONS, TRACE read, PUT and DELETE idempotent writes, POST and PATCH writes. */
  readonly risk: Risk;
  /** `undefined` when the route does not know its service's contract. */
  readonly honoursKeys?: boolean;
  /** The call's own sends, in arrival order. */
  readonly attempts: readonly WireAttempt[];
  /** Status queries that reconciled it (R21). */
  readonly statusQueries: readonly WireAttempt[];
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const IDEMPOTENT = new Set(['PUT', 'DELETE']);

/** RFC 9110's method semantics, for a route that declares no risk. */
export const riskOfMethod = (method: string): Risk =>
  READS.has(method) ? 'read' : IDEMPOTENT.has(method) ? 'idempotent-write' : 'write';

/** `create_order#1 attempt 2 (http-2, POST https://api.shop.test/orders) at t=400ms`. */
export const describeWire = (call: WireCall, a: WireAttempt): string =>
  `${call.call}${a.purpose === 'status' ? ' status query' : ''} attempt ${a.attempt} (${a.request}, ${a.method} ${a.url}) at t=${a.t}ms`;

/** An attempt as evidence: the request, its time and what came back. */
export function wireEvidence(a: WireAttempt): Record<string, unknown> {
  return {
    request: a.request,
    attempt: a.attempt,
    method: a.method,
    url: a.url,
    seq: a.seq,
    t: a.t,
    ...(a.idempotencyKey === undefined ? {} : { idempotencyKey: a.idempotencyKey }),
    ...(a.answer === undefined
      ? {}
      : {
          answer: {
            result: a.answer.result,
            ...(a.answer.status === undefined ? {} : { status: a.answer.status }),
            ...(a.answer.errorKind === undefined ? {} : { errorKind: a.answer.errorKind }),
            ...(a.answer.retryAfter === undefined ? {} : { retryAfter: a.answer.retryAfter }),
          },
        }),
  };
}

/** The answer never came, or the connection dropped mid-exchange: a write may have committed (R18). */
export const lostAnswer = (a: WireAttempt): boolean =>
  a.answer !== undefined &&
  (a.answer.result === 'lost' ||
    (a.answer.errorKind === 'network' && !(a.answer.message ?? '').startsWith('ECONNREFUSED')));

export const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

interface Building {
  call: string;
  tool: string;
  kind: 'tool' | 'model';
  risk: Risk;
  honoursKeys: boolean | undefined;
  attempts: WireAttempt[];
  statusQueries: WireAttempt[];
}

/**
 * The trial's HTTP traffic as logical calls with their attempts, times, answers and wait
 * hints, from `http_request`, `response` and `delivery` events alone: it judges whoever made
 * the calls (the user's fetch, an SDK, an agent's own retry loop).
 *
 * One source of truth per attempt: a request whose `x-faultline-call` header names a call the
 * history's execution layer recorded (`tool_call`) is that executor's attempt, already judged
 * from its `attempt` events; it is left out of the calls here (`executorRequests` lists it,
 * for the load it adds). The in-process wire records no `http_request`, so its attempts are
 * never seen twice either.
 */
export class WireView {
  readonly calls: readonly WireCall[];
  /** Requests sent on behalf of an execution layer's call, by that call's id. */
  readonly executorRequests: ReadonlyMap<string, readonly WireAttempt[]>;
  readonly #byRequest = new Map<string, { call: WireCall | undefined; attempt: WireAttempt }>();
  #toolCalls: readonly WireCall[] | undefined;

  /** `sent`: the history's `http_request` events, when the caller has them already (a `TrialIndex` does). */
  constructor(
    history: readonly HistoryEvent[],
    sent: readonly EventOf<'http_request'>[] = history.filter(
      (e): e is EventOf<'http_request'> => e.type === 'http_request',
    ),
  ) {
    // A trial over the in-process wire has no HTTP traffic: nothing is built (its answers and
    // deliveries would be tens of thousands of entries in a crowd).
    const owned = new Map<string, WireAttempt[]>();
    this.executorRequests = owned;
    if (sent.length === 0) {
      this.calls = [];
      return;
    }
    const executorCalls = new Set<string>();
    const answers = new Map<string, WireAnswer>();
    const deliveries = new Map<string, number>();
    for (const e of history) {
      if (e.type === 'tool_call') executorCalls.add(e.call);
      else if (e.type === 'delivery') deliveries.set(e.request, (deliveries.get(e.request) ?? 0) + 1);
      else if (e.type === 'response' && !answers.has(e.request)) answers.set(e.request, answerOf(e));
    }
    const calls = new Map<string, Building>();
    const attempts: { attempt: WireAttempt; call: string | undefined }[] = [];
    for (const e of sent) {
      const answer = answers.get(e.request);
      const attempt: WireAttempt = {
        request: e.request,
        seq: e.seq,
        t: e.t,
        attempt: e.attempt,
        purpose: e.purpose,
        groupedBy: e.groupedBy,
        method: e.method,
        url: e.url,
        ...(e.idempotencyKey === undefined ? {} : { idempotencyKey: e.idempotencyKey }),
        bodyDigest: e.bodyDigest,
        ...(e.sdkRetryCount === undefined ? {} : { sdkRetryCount: e.sdkRetryCount }),
        ...(e.framework === undefined ? {} : { framework: e.framework }),
        ...(answer === undefined ? {} : { answer }),
        deliveries: deliveries.get(e.request) ?? 0,
      };
      if (e.clientCall !== undefined && executorCalls.has(e.clientCall)) {
        const list = owned.get(e.clientCall);
        if (list) list.push(attempt);
        else owned.set(e.clientCall, [attempt]);
        attempts.push({ attempt, call: undefined });
        continue;
      }
      let call = calls.get(e.call);
      if (!call) {
        call = {
          call: e.call,
          tool: e.tool,
          kind: e.kind,
          risk: e.risk ?? riskOfMethod(e.method),
          honoursKeys: e.honoursKeys,
          attempts: [],
          statusQueries: [],
        };
        calls.set(e.call, call);
      }
      (e.purpose === 'status' ? call.statusQueries : call.attempts).push(attempt);
      attempts.push({ attempt, call: e.call });
    }
    const built = new Map<string, WireCall>();
    for (const c of calls.values()) {
      const { honoursKeys, ...rest } = c;
      built.set(c.call, { ...rest, ...(honoursKeys === undefined ? {} : { honoursKeys }) });
    }
    this.calls = [...built.values()];
    for (const { attempt, call } of attempts)
      this.#byRequest.set(attempt.request, { call: call === undefined ? undefined : built.get(call), attempt });
  }

  /** The tool calls (model API traffic is `model-retries`' to judge, R3). */
  get toolCalls(): readonly WireCall[] {
    return (this.#toolCalls ??= this.calls.filter((c) => c.kind === 'tool'));
  }

  get modelCalls(): readonly WireCall[] {
    return this.calls.filter((c) => c.kind === 'model');
  }

  /**
   * Whether `call`'s outcome was looked up between two events (R21): a status query of its
   * tool, or any read of the same service (a lookup by business key counts; which read
   * settles it is the caller's business, so any read is given the benefit of the doubt).
   */
  queried(call: WireCall, sent: WireAttempt, afterSeq: number, beforeSeq: number): boolean {
    return this.calls.some((c) =>
      [...c.statusQueries, ...(c.risk === 'read' ? c.attempts : [])].some(
        (a) =>
          a.seq > afterSeq && a.seq < beforeSeq && (c.tool === call.tool || originOf(a.url) === originOf(sent.url)),
      ),
    );
  }

  /** The wire call a request belongs to (`undefined` for an execution layer's own request). */
  callOf(request: string): WireCall | undefined {
    return this.#byRequest.get(request)?.call;
  }
}

function answerOf(e: ResponseEvent): WireAnswer {
  return {
    seq: e.seq,
    t: e.t,
    result: e.result,
    ...(e.status === undefined ? {} : { status: e.status }),
    ...(e.message === undefined ? {} : { message: e.message }),
    ...(e.errorKind === undefined ? {} : { errorKind: e.errorKind }),
    ...(e.retryAfter === undefined ? {} : { retryAfter: e.retryAfter }),
    ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs }),
  };
}
