const kHttpError = Symbol.for('faultline.HttpError');

/**
 * What a real HTTP client throws for a non-2xx answer: status, headers and body, the way
 * SDK error classes (OpenAI's APIError, Anthropic's APIError) carry them. Services and the
 * wire throw it; the runtime's classifier reads it like any other client error.
 */
export class HttpError extends Error {
  override readonly name: string = 'HttpError';
  /** A brand that survives a second copy of faultline in one process (see `isHttpError`). */
  readonly [kHttpError] = true;
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = undefined,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/**
 * Whether `error` is an `HttpError` from this copy of faultline or another one (a user's
 * service module may import its own copy): `instanceof` alone would turn its business
 * errors into 500s.
 */
export const isHttpError = (error: unknown): error is HttpError =>
  error instanceof HttpError || (error instanceof Error && (error as { [kHttpError]?: unknown })[kHttpError] === true);

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
