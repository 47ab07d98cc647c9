/**
 * What a real HTTP client throws for a non-2xx answer: status, headers and body, the way
 * SDK error classes (OpenAI's APIError, Anthropic's APIError) carry them. Services and the
 * wire throw it; the runtime's classifier reads it like any other client error.
 */
export class HttpError extends Error {
  override readonly name: string = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = undefined,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** A Node-style system error (`err.code === 'ECONNRESET'`), as node:net raises it. */
export function systemError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

/** The error a caller sees when its own timer gives up on a request. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(readonly afterMs: number) {
    super(`request timed out after ${afterMs} ms`);
  }
}
