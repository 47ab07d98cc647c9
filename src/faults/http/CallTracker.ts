import type { HttpRequestFields } from '../../core/index.js';

/** How a request was tied to its logical call: the first rule of `CallTracker` that applied. */
export type CallGrouping = HttpRequestFields['groupedBy'];

/** Where one request sits among the calls of its operation. */
export interface CallPosition {
  /** The logical call's id: `create_order#2` is the second call of `create_order`. */
  readonly call: string;
  /** The nth distinct call of the operation in the trial, 1-based (a plan's `match.call`). */
  readonly callNumber: number;
  /** The attempt within the call, 1-based, counted apart for calls and status queries (a plan's `match.attempt`). */
  readonly attempt: number;
  readonly by: CallGrouping;
}

/** What the tracker reads of one request. */
export interface TrackedRequest {
  /** The route's operation (`create_order`, `model:openai.chat.completions`). */
  readonly operation: string;
  readonly purpose: 'call' | 'status';
  readonly kind: 'tool' | 'model';
  readonly method: string;
  readonly url: string;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's canonical digest (`bodyDigest`): equal bodies, equal digests. */
  readonly digest: string;
}

/** Headers a caller may set to name the call and attempt outright. */
export const CALL_HEADER = 'x-faultline-call';
export const ATTEMPT_HEADER = 'x-faultline-attempt';
/** The OpenAI and Anthropic SDKs number their own retries in this header (0 for the first try). */
export const SDK_RETRY_HEADER = 'x-stainless-retry-count';

/**
 * The correlation headers an execution layer sends so the wire ties each HTTP request to its
 * own call and attempt (then the executor's `attempt` events are the source of truth for it).
 */
export const correlationHeaders = (call: string, attempt: number): Record<string, string> => ({
  [CALL_HEADER]: call,
  [ATTEMPT_HEADER]: String(attempt),
});

const count = (text: string | undefined): number | undefined => {
  const n = text === undefined ? NaN : Number(text);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

interface CallEntry {
  readonly id: string;
  readonly number: number;
  /** Requests sent so far, by purpose. */
  readonly sent: { call: number; status: number };
  /** A settled answer (a success, or a read's 404) closes the call's window for the same-request rule: resending after it is new work. */
  succeeded: boolean;
}

interface Repeatable {
  readonly id: string;
  /** The window the request was sent in (see `#window`). */
  window: number;
}

/**
 * Tells which requests are retries of one logical call, from what goes over the wire alone.
 * The first rule that applies, per operation:
 *
 * 1. `x-faultline-call: <id>` names the call; `x-faultline-attempt` the attempt, if sent.
 * 2. An `Idempotency-Key` the operation has seen joins the call that sent it.
 * 3. `x-stainless-retry-count: n` with n > 0 (the OpenAI and Anthropic SDKs' own retries)
 *    continues the latest call with the same request (else the operation's latest call).
 *    A count of 0 is the SDK's first try, but only of the SDK's own call: a framework that
 *    builds its client with `maxRetries: 0` and resends itself (LangChain) sends 0 on every
 *    resend, so rule 5 still applies to it.
 * 4. A status query (a route of purpose `status`) reconciles the operation's latest call: it
 *    joins it, its attempts counted apart from the call's own.
 * 5. The same method, URL and body digest as an earlier request of the operation and purpose
 *    continues that request's call as its next attempt, while the window is open. The window
 *    closes when that call got a success answer (2xx, 3xx: sending again is new work) or, for a
 *    read, a 404 (asking again is polling for the resource to appear), and,
 *    for a tool route, when any model request arrives (a model turn in between means the
 *    agent decided again); for a model route, when a model request with another body does.
 *    A new `Idempotency-Key` does not break the rule: a new key per retry is still a retry (R23).
 * 6. Otherwise the request starts a new call.
 *
 * Attempts count per call and purpose, so `match: { attempt: 1 }` hits only the first try of a
 * keyless client's retries. Unrelated identical requests sent without a model turn or a
 * success in between (rare: a client that fires the same failing write twice on purpose)
 * are read as one call; such a client can say otherwise with `x-faultline-call`.
 */
export class CallTracker {
  /** Per operation: call id (and every key the call sent, as `key:…`) → call. */
  readonly #calls = new Map<string, Map<string, CallEntry>>();
  readonly #numbers = new Map<string, number>();
  /** By the public id (`create_order#2`). */
  readonly #byId = new Map<string, CallEntry>();
  /** Per operation: the latest call of purpose `call`. */
  readonly #latest = new Map<string, string>();
  /** Per operation, purpose, method, URL and digest: the latest request's call and window. */
  readonly #repeats = new Map<string, Repeatable>();
  /** Every model request opens a new tool window. */
  #toolWindow = 0;
  /** A model request with another body than the last opens a new model window. */
  #modelWindow = 0;
  #lastModel: string | undefined;
  #anonymous = 0;

  place(req: TrackedRequest): CallPosition {
    let calls = this.#calls.get(req.operation);
    if (!calls) this.#calls.set(req.operation, (calls = new Map()));
    const same = `${req.operation}\u0000${req.purpose}\u0000${req.method.toUpperCase()}\u0000${req.url}\u0000${req.digest}`;
    if (req.kind === 'model') {
      this.#toolWindow++;
      if (this.#lastModel !== same) this.#modelWindow++;
      this.#lastModel = same;
    }
    const window = req.kind === 'model' ? this.#modelWindow : this.#toolWindow;
    const explicit = req.headers[CALL_HEADER];
    const key = req.headers['idempotency-key'];
    const sdkRetry = count(req.headers[SDK_RETRY_HEADER]);
    const repeat = this.#repeats.get(same);
    const open =
      repeat !== undefined && repeat.window === window && calls.get(repeat.id)?.succeeded === false
        ? repeat.id
        : undefined;
    const latest = this.#latest.get(req.operation);

    let id: string;
    let by: CallGrouping;
    if (explicit !== undefined) [id, by] = [`call:${explicit}`, 'header'];
    else if (key !== undefined && calls.has(`key:${key}`)) [id, by] = [`key:${key}`, 'key'];
    else if (sdkRetry !== undefined && sdkRetry > 0 && (repeat ?? latest) !== undefined)
      [id, by] = [repeat?.id ?? latest!, 'sdk'];
    else if (req.purpose === 'status' && latest !== undefined) [id, by] = [latest, 'status'];
    // An identical body while the window is open is a resend, whatever retry count the header claims.
    else if (open !== undefined) [id, by] = [open, 'repeat'];
    else [id, by] = [key !== undefined ? `key:${key}` : `anon:${++this.#anonymous}`, 'new'];

    let entry = calls.get(id);
    if (!entry) {
      const number = (this.#numbers.get(req.operation) ?? 0) + 1;
      this.#numbers.set(req.operation, number);
      entry = { id: `${req.operation}#${number}`, number, sent: { call: 0, status: 0 }, succeeded: false };
      calls.set(id, entry);
      this.#byId.set(entry.id, entry);
    }
    // A new key on a repeated request names the same call from now on.
    if (key !== undefined && !calls.has(`key:${key}`)) calls.set(`key:${key}`, entry);
    entry.sent[req.purpose]++;
    if (req.purpose === 'call') this.#latest.set(req.operation, id);
    this.#repeats.set(same, { id, window });
    // An SDK retry inside a call a higher layer already resent counts on from the call's own sends.
    const sdkAttempt = sdkRetry !== undefined && by === 'new' ? sdkRetry + 1 : undefined;
    const attempt = count(req.headers[ATTEMPT_HEADER]) ?? sdkAttempt ?? entry.sent[req.purpose];
    return { call: entry.id, callNumber: entry.number, attempt: Math.max(1, attempt), by };
  }

  /** A request of `call` was answered; a settled answer (`ok`: a success, a read's 404) closes the call's same-request window (rule 5). */
  answered(call: string, ok: boolean): void {
    const entry = this.#byId.get(call);
    if (entry && ok) entry.succeeded = true;
  }
}
