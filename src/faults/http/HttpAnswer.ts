import http from 'node:http';
import { constants } from 'node:os';
import { isHttpError } from '../../core/index.js';

/** How an intercepted request is answered: what goes back over the network, or nothing. */
export type HttpAnswer =
  | {
      readonly kind: 'respond';
      readonly status: number;
      readonly statusText: string;
      /** Lower-cased names. */
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    }
  /** The connection fails: the client sees a socket error, never a status. */
  | { readonly kind: 'network'; readonly code: NetworkCode; readonly message: string }
  /** Nothing comes back; only the client's own timeout (or the trial's end) ends the wait. */
  | { readonly kind: 'hang'; readonly reason: string }
  /**
   * A streamed answer (`text/event-stream`): status and headers at once, then the body as
   * server-sent `events`. A route returns the events (`streamReply`); the engine adds `body`,
   * the same events paced on the trial's clock and shaped by a stream fault, for the adapters to send.
   */
  | {
      readonly kind: 'stream';
      readonly status: number;
      readonly statusText: string;
      /** Lower-cased names. */
      readonly headers: Readonly<Record<string, string>>;
      /** Each a whole event, its blank line included. */
      readonly events: readonly string[];
      readonly body?: StreamBody;
    };
export type HttpAnswerKind = HttpAnswer['kind'];

export type NetworkCode = 'ECONNRESET' | 'ECONNREFUSED' | 'EPIPE';

/** A streamed answer's body as the client reads it, one event at a time. */
export interface StreamBody {
  /**
   * The next event's text, `undefined` once the stream has ended. Rejects when the connection
   * drops mid-stream; on a stall it settles only when the client gives up or the trial ends.
   */
  next(): Promise<string | undefined>;
  /** The client stopped reading (it cancelled the body, or its request was aborted). */
  cancel(reason?: unknown): void;
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 529: 'Overloaded' };
export const statusText = (status: number): string => STATUS_TEXT[status] ?? http.STATUS_CODES[status] ?? '';

/** A status an answer can carry: 200 to 599 (1xx are interim, never the answer). */
export const isStatus = (status: unknown): status is number =>
  Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599;

/** Answers made by `respond`/`reply`: what a route's `serve` may return instead of a value to wrap. */
const made = new WeakSet<object>();

/**
 * A JSON (or, for a string body, plain-text) answer; a `content-type` among `headers` wins.
 * An `undefined` body is none at all, with no `content-type`.
 */
export function respond(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): HttpAnswer {
  if (!isStatus(status)) {
    throw new RangeError(`an answer's status must be an integer from 200 to 599, not ${String(status)}`);
  }
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  const type =
    body === undefined
      ? {}
      : { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' };
  const answer: HttpAnswer = {
    kind: 'respond',
    status,
    statusText: statusText(status),
    headers: { ...type, ...lowerCased(headers) },
    body: text,
  };
  made.add(answer);
  return answer;
}

/**
 * An explicit answer for a route's `serve` (or its error mapper) to return, in the API's own
 * shape: any status, a JSON body (a string is sent as text), extra headers. A value that is
 * not made by `reply` is sent as a JSON success with the route's `okStatus`.
 *
 * @example
 * serve: (input) => reply(402, { error: { type: 'card_error', code: 'card_declined', message: 'Your card was
 * declined.' } }, { 'request-id': 'req_1' })
 */
export function reply(status: number, body?: unknown, headers: Readonly<Record<string, string>> = {}): HttpAnswer {
  return respond(status, body, headers);
}

/** A `200 text/event-stream` answer whose body is `events`, each a whole server-sent event (`data: …` and its blank line). */
export function streamReply(events: readonly string[], headers: Readonly<Record<string, string>> = {}): HttpAnswer {
  const answer: HttpAnswer = {
    kind: 'stream',
    status: 200,
    statusText: statusText(200),
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...lowerCased(headers),
    },
    events: [...events],
  };
  made.add(answer);
  return answer;
}

/** Whether `value` is an answer made by `reply`, `respond` or `streamReply`. */
export const isAnswer = (value: unknown): value is HttpAnswer =>
  typeof value === 'object' && value !== null && made.has(value);

export const lowerCased = (headers: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** Statuses whose answers never carry a body (RFC 9110); `new Response` refuses one. */
const NO_BODY = new Set([204, 205, 304]);

/** The answer as it goes over the wire: a HEAD request's, or a 204's, has status and headers and no body. */
export function onTheWire(answer: HttpAnswer, method: string): HttpAnswer {
  if (answer.kind === 'stream')
    return method.toUpperCase() === 'HEAD'
      ? { kind: 'respond', status: answer.status, statusText: answer.statusText, headers: answer.headers, body: '' }
      : answer;
  if (answer.kind !== 'respond' || answer.body === '') return answer;
  return method.toUpperCase() === 'HEAD' || NO_BODY.has(answer.status) ? { ...answer, body: '' } : answer;
}

/**
 * The answer that makes a real client throw what `error` describes: an `HttpError` becomes its
 * status, headers and body; a Node system error (`code`) a failed connection. Anything else
 * is a crash behind the API: a 500.
 */
export function answerOf(error: unknown): HttpAnswer {
  if (isHttpError(error) && isStatus(error.status))
    return respond(error.status, error.body ?? { error: { message: error.message } }, error.headers);
  return crashOrNetwork(error);
}

/** A Node system error as a failed connection; anything else as a 500. */
export function crashOrNetwork(error: unknown): HttpAnswer {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNRESET' || code === 'ECONNREFUSED' || code === 'EPIPE') {
    return { kind: 'network', code, message: error instanceof Error ? error.message : String(code) };
  }
  const message = error instanceof Error ? error.message : String(error);
  return respond(500, { error: { type: 'server_error', message } });
}

/** The body cut short mid-JSON, status and headers intact: what a dropped connection mid-body leaves. */
export function truncate(answer: HttpAnswer): HttpAnswer {
  if (answer.kind !== 'respond') return answer;
  const keep = Math.max(1, Math.floor(answer.body.length / 2));
  return { ...answer, body: answer.body.slice(0, Math.min(keep, Math.max(0, answer.body.length - 1))) };
}

const kInjected = Symbol('faultline.injected');

/** Marks an error as one the harness raised on purpose (a network fault), not a crash. */
export function injected<E extends Error>(error: E): E {
  Object.defineProperty(error, kInjected, { value: true });
  return error;
}

export const isInjected = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && kInjected in error;

const SYSCALLS: Readonly<Record<NetworkCode, string>> = { ECONNRESET: 'read', ECONNREFUSED: 'connect', EPIPE: 'write' };

/** A Node system error as node:net raises it: `code`, negative `errno`, `syscall`. */
export function socketError(
  code: NetworkCode,
  message: string,
): Error & { code: string; errno: number; syscall: string } {
  return injected(
    Object.assign(new Error(message), { code, errno: -(constants.errno[code] ?? 0), syscall: SYSCALLS[code] }),
  );
}

/**
 * What `fetch` (undici) rejects with when the connection fails: `TypeError: fetch failed`
 * with the socket error as `cause`. It also carries `code` and `errno`, which the interceptor
 * needs to pass it through as a network error rather than turn it into a 500.
 */
export function fetchFailed(code: NetworkCode, message: string): TypeError & { code: string; errno: number } {
  const cause = socketError(code, message);
  return injected(Object.assign(new TypeError('fetch failed', { cause }), { code, errno: cause.errno }));
}
