import type { Mutable } from './Mutable.js';
const kHttpError = Symbol.for('faultline.HttpError');

/**
 * What a real HTTP client throws for a non-2xx answer: status, headers and body, the way
 * SDK error classes (OpenAI's APIError, Anthropic's APIError) carry them. Services and the
 * wire throw it; the runtime's classifier reads it like any other client error.
 */
export class HttpError extends Error {
  // Declared, not initialised as class fields: the constructor writes them, in the order the fields and parameter
  // properties gave (status, body, headers, name, the brand), with the attributes they gave. Field initialisers
  // cost every refusal of a retrying trial a call of their own (http.property.test.ts holds the two forms equal).
  declare readonly status: number;
  declare readonly body: unknown;
  declare readonly headers: Readonly<Record<string, string>>;
  /** A brand that survives a second copy of faultline in one process (see `isHttpError`). */
  declare readonly [kHttpError]: true;
  constructor(
    status: number,
    message: string,
    body: unknown = undefined,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    const own = this as Mutable<HttpError>;
    own.status = status;
    own.body = body;
    own.headers = headers;
    own.name = 'HttpError';
    own[kHttpError] = true;
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
