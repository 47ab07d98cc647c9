/** Where one request sits among the calls of its operation. */
export interface CallPosition {
  /** The logical call's id: `create_order#2` is the second call of `create_order`. */
  readonly call: string;
  /** The nth distinct call of the operation in the trial, 1-based (a plan's `match.call`). */
  readonly callNumber: number;
  /** The attempt within the call, 1-based (a plan's `match.attempt`). */
  readonly attempt: number;
}

/** Headers a test may set to name the call and attempt outright. */
export const CALL_HEADER = 'x-faultline-call';
export const ATTEMPT_HEADER = 'x-faultline-attempt';
/** The OpenAI and Anthropic SDKs number their own retries in this header (0 for the first try). */
export const SDK_RETRY_HEADER = 'x-stainless-retry-count';

const positiveInt = (text: string | undefined): number | undefined => {
  const n = text === undefined ? NaN : Number(text);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

/**
 * Tells which requests are retries of one logical call, from what goes over the wire: an
 * explicit `x-faultline-call` header, else a repeated `Idempotency-Key`, else an SDK's
 * `x-stainless-retry-count` (a count above 0 continues the operation's latest call).
 * Without any of these every request is a call of its own: a client that retries with
 * nothing in common between its tries looks, to the server, like new work.
 */
export class CallTracker {
  /** Per operation: call key → call number, and how many requests each call sent. */
  readonly #calls = new Map<string, Map<string, { number: number; sent: number }>>();
  readonly #latest = new Map<string, string>();
  #anonymous = 0;

  place(operation: string, headers: Readonly<Record<string, string>>): CallPosition {
    let calls = this.#calls.get(operation);
    if (!calls) this.#calls.set(operation, (calls = new Map()));
    const explicit = headers[CALL_HEADER];
    const key = headers['idempotency-key'];
    const sdkRetry = positiveInt(headers[SDK_RETRY_HEADER]);
    const latest = this.#latest.get(operation);
    const id =
      explicit !== undefined ? `call:${explicit}`
      : key !== undefined ? `key:${key}`
      : sdkRetry !== undefined && sdkRetry > 0 && latest !== undefined ? latest
      : `anon:${++this.#anonymous}`;
    let entry = calls.get(id);
    if (!entry) calls.set(id, (entry = { number: calls.size + 1, sent: 0 }));
    entry.sent++;
    this.#latest.set(operation, id);
    const attempt = positiveInt(headers[ATTEMPT_HEADER]) ?? (sdkRetry !== undefined && explicit === undefined && key === undefined ? sdkRetry + 1 : entry.sent);
    return { call: `${operation}#${entry.number}`, callNumber: entry.number, attempt: Math.max(1, attempt) };
  }
}
