import { HttpError } from '../../core/index.js';

/** What a business error says besides its status. */
export interface ServiceErrorInit {
  /** A stable, machine-readable code of the API's own: `card_declined`, `ticket_not_found`. */
  readonly code: string;
  readonly message: string;
  /** The error family in the body (default by status: `invalid_request_error`, `api_error`, …). */
  readonly type?: string;
  /** The input field at fault, so a caller (or a model) can fix it (R14). */
  readonly param?: string;
  /** More fields for the error body: `decline_code`, limits, ids. */
  readonly details?: Readonly<Record<string, unknown>>;
  /** Response headers over HTTP, such as `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A business error a service's tool throws: a card decline, a missing ticket, a closed
 * order. It is an `HttpError`, so the classifier reads its status exactly as it reads a
 * built-in service's (R1, R2: 404 not_found, 409 conflict, 422 invalid_argument, 429, 5xx),
 * in process and over HTTP alike; over HTTP the body is `{ error: { type, code, message, … } }`
 * unless the service's `http.error` renders it in the API's own shape.
 *
 * @example
 * throw new ServiceError(402, { code: 'card_declined', message: 'Your card was declined.', type: 'card_error',
 * details: { decline_code: 'insufficient_funds' } });
 */
export class ServiceError extends HttpError {
  override readonly name = 'ServiceError';
  readonly code: string;
  readonly type: string;
  readonly param: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(status: number, init: ServiceErrorInit) {
    const type = init.type ?? defaultType(status);
    super(status, init.message, { error: errorBody(type, init) }, init.headers ?? {});
    this.code = init.code;
    this.type = type;
    this.param = init.param;
    this.details = init.details ?? {};
  }
}

/**
 * The body's `error`: type, code, the param if any, message, then the details' own keys. Built key by key: the
 * conditional spreads built a temporary object or two per error, and a crowd meets thousands of conflicts a trial.
 */
export function errorBody(type: string, init: ServiceErrorInit): Record<string, unknown> {
  const error: Record<string, unknown> = { type, code: init.code };
  if (init.param !== undefined) error['param'] = init.param;
  error['message'] = init.message;
  // A spread still, where there are details: it copies as a spread does (a "__proto__" key stays a key).
  return init.details === undefined ? error : { ...error, ...init.details };
}

function defaultType(status: number): string {
  if (status === 401 || status === 403) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}
