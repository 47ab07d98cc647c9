import { HttpError, systemError } from '../core/index.js';
import { stackless } from '../core/stackless.js';
import type { FaultOf } from './fault.js';

/** The kinds of fault the wire answers with a status of its own, without reaching the service. */
type StatusRefusalKind =
  'rate_limit' | 'quota_exceeded' | 'unavailable' | 'permission_denied' | 'rejected' | 'not_found' | 'conflict';

/** Faults whose answer has a status, and so may carry the API's own headers and body. */
export type AnsweringFault = FaultOf<StatusRefusalKind | 'server_error' | 'partial_write'>;

/** The `headers` and `body` an answering fault may set. */
export type AnswerFields = Pick<AnsweringFault, 'headers' | 'body'>;

/** Faults the wire answers itself, without reaching the service. */
export type RefusalFault = FaultOf<'network' | StatusRefusalKind>;

/** Messages as Node's net/http layers word them, so classifiers meet what production throws. */
const NETWORK_MESSAGES = {
  ECONNRESET: 'socket hang up',
  ECONNREFUSED: 'connect ECONNREFUSED 127.0.0.1:443',
  EPIPE: 'write EPIPE',
} as const;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  529: 'Overloaded',
};

const SERVER_ERROR_MESSAGE = 'The server had an error while processing your request.';

/** `{ error: { type, message } }`: the envelope OpenAI- and Stripe-style APIs answer errors in. */
const envelope = (type: string, message: string, extra: Record<string, unknown> = {}): unknown => ({
  error: { type, message, ...extra },
});

function retryAfterHeader(fault: FaultOf<'rate_limit'>, nowMs: number): Record<string, string> {
  const { retryAfter, retryAfterAs } = fault;
  if (retryAfter === undefined) return {};
  if (typeof retryAfter === 'string') return { 'retry-after': retryAfter };
  if (retryAfterAs === 'http-date') return { 'retry-after': new Date(nowMs + retryAfter * 1000).toUTCString() };
  return { 'retry-after': String(retryAfter) };
}

function unavailableError(status: FaultOf<'unavailable'>['status']): HttpError {
  const text = STATUS_TEXT[status] ?? 'Server Error';
  switch (status) {
    case 529:
      // Anthropic's overload answer, byte for byte.
      return new HttpError(529, text, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    case 500:
      return new HttpError(500, text, envelope('server_error', SERVER_ERROR_MESSAGE));
    default:
      // Gateways in front of the service answer in plain text, not in the API's JSON.
      return new HttpError(status, text, `${status} ${text}`);
  }
}

/**
 * The error a real client throws for a fault the wire answers itself: a Node system error
 * for `network`, otherwise the `HttpError` the API would send (status, body, headers).
 * `nowMs` dates an HTTP-date `Retry-After`. The http adapters reuse it to build responses.
 */
export function faultError(fault: RefusalFault, nowMs: number): Error {
  return stackless(() => {
    const error = buildFaultError(fault, nowMs);
    return fault.kind === 'network' ? markFault(error) : inApiWords(error as HttpError, fault);
  });
}

/**
 * The brand of an error a fault made: rendered as the fault says, never through a route's
 * business error mapper. A private field stamped on the error (a base constructor that returns
 * the object it is given lets a subclass's field initialiser run on any object), not a WeakSet of
 * such errors: V8 kept a WeakSet's entries alive through young-generation collections, so every
 * refusal of a retrying trial outlived it into the old generation. Not a non-enumerable symbol
 * property either: `Object.defineProperty` cost each refusal more than building its error. JSON,
 * a spread and a scrub see it no more than they saw the symbol (and `Reflect.ownKeys`, unlike the
 * symbol, not at all); it is the error's own: neither a copy nor an object made from it carries it.
 */
class Stamp {
  constructor(target: object) {
    // The point: the subclass's field initialiser runs on `target`.
    return target;
  }
}

class FaultMade extends Stamp {
  readonly #made = true;

  static mark<E extends Error>(error: E): E {
    if (!FaultMade.has(error)) void new FaultMade(error);
    return error;
  }

  static has(value: object): boolean {
    return #made in value;
  }
}

const markFault = <E extends Error>(error: E): E => FaultMade.mark(error);

/** Whether `error` is one a fault made (a refusal, a lost answer, a `server_error`), even replayed by an idempotency table. */
export const isFaultError = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && FaultMade.has(error);

/** The fault's own `headers` (merged, case-insensitive) and `body` (instead) over the default answer. */
function inApiWords(error: HttpError, fault: AnswerFields): HttpError {
  if (fault.headers === undefined && fault.body === undefined) return markFault(error);
  const own = Object.fromEntries(Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return markFault(
    new HttpError(error.status, error.message, fault.body === undefined ? error.body : fault.body, {
      ...error.headers,
      ...own,
    }),
  );
}

function buildFaultError(fault: RefusalFault, nowMs: number): Error {
  switch (fault.kind) {
    case 'network':
      return systemError(fault.code, NETWORK_MESSAGES[fault.code]);
    case 'rate_limit': {
      const wait = typeof fault.retryAfter === 'number' ? ` Please try again in ${fault.retryAfter}s.` : '';
      const message = `Rate limit reached for requests.${wait}`;
      return new HttpError(
        429,
        message,
        envelope('requests', message, { code: 'rate_limit_exceeded' }),
        retryAfterHeader(fault, nowMs),
      );
    }
    case 'quota_exceeded': {
      const message = 'You exceeded your current quota, please check your plan and billing details.';
      return new HttpError(429, message, envelope('insufficient_quota', message, { code: 'insufficient_quota' }));
    }
    case 'unavailable':
      return unavailableError(fault.status);
    case 'permission_denied':
      return fault.status === 401
        ? new HttpError(
            401,
            'Invalid authentication credentials',
            envelope('authentication_error', 'Invalid authentication credentials', { code: 'invalid_api_key' }),
          )
        : new HttpError(
            403,
            'You do not have permission to perform this action',
            envelope('permission_error', 'You do not have permission to perform this action'),
          );
    case 'rejected': {
      const message = fault.message ?? 'The request was well-formed but could not be processed';
      return new HttpError(422, message, envelope('unprocessable_entity_error', message));
    }
    case 'not_found':
      return new HttpError(
        404,
        'The requested resource was not found',
        envelope('not_found_error', 'The requested resource was not found'),
      );
    case 'conflict':
      return new HttpError(
        409,
        'The request conflicts with the current state of the resource',
        envelope('conflict_error', 'The request conflicts with the current state of the resource'),
      );
  }
}

/** What a caller sees when the answer to a committed request is lost on the way back (R18): a reset, or the gateway's 504. */
export function lostAnswerError(lostAs: 'network' | 'unavailable', answer: AnswerFields = {}): Error {
  return stackless(() =>
    lostAs === 'network'
      ? markFault(systemError('ECONNRESET', 'socket hang up'))
      : inApiWords(unavailableError(504), answer),
  );
}

/** The 500 a `server_error` fault makes the service fail with, before it commits. */
export function serverError(fault: FaultOf<'server_error'>): HttpError {
  return stackless(() =>
    inApiWords(new HttpError(500, SERVER_ERROR_MESSAGE, envelope('server_error', SERVER_ERROR_MESSAGE)), fault),
  );
}

/** What JSON.parse throws on a truncated body. */
export const malformedError = (): SyntaxError => stackless(() => new SyntaxError('Unexpected end of JSON input'));
