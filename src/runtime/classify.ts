import { TRANSIENT_KINDS, type ErrorData, type ErrorKind } from '../core/index.js';
import { httpErrorKind, kindWithQuota } from '../core/httpErrorKinds.js';
import { parseRetryAfter } from '../core/retryAfter.js';
import { kindOfMessage } from '../core/errorText.js';
import type { Mutable } from '../core/Mutable.js';

/** Node and undici error codes, read before anything else (R2). */
export const CODE_KINDS: Readonly<Record<string, ErrorKind>> = {
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNRESET: 'network',
  ECONNREFUSED: 'network',
  ECONNABORTED: 'network',
  EPIPE: 'network',
  ENOTFOUND: 'network',
  EAI_AGAIN: 'network',
  ENETUNREACH: 'network',
  EHOSTUNREACH: 'network',
  ENETDOWN: 'network',
};

/** Error class names (SDKs and runtimes) that say what happened without a status. */
export const NAME_KINDS: Readonly<Record<string, ErrorKind>> = {
  TimeoutError: 'timeout',
  AbortError: 'timeout',
  APIConnectionTimeoutError: 'timeout',
  APIConnectionError: 'network',
  ZodError: 'invalid_argument',
  /** A client-side breaker refused to send (retry/CircuitOpenError.ts): the service is taken to be down. */
  CircuitOpenError: 'unavailable',
  /** The client's adaptive throttling rejected the send (retry/client/ClientThrottledError.ts). */
  ClientThrottledError: 'unavailable',
};

export { STATUS_KINDS, BODY_CODE_KINDS } from '../core/httpErrorKinds.js';

export { MESSAGE_PATTERNS } from '../core/errorText.js';

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** Own keys only: `'constructor' in table` must not classify anything. */
const lookup = <V>(table: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

const isStatus = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 599;

// The readers below read the error's fields in the order they always did, into locals rather than
// arrays and closures: one classification per failed attempt, every object it made was garbage.

function statusOf(e: Obj): number | undefined {
  const response = isObj(e['response']) ? e['response'] : undefined;
  const own = e['status'];
  const code = e['statusCode'];
  const answered = response?.['status'];
  if (isStatus(own)) return own;
  if (isStatus(code)) return code;
  return isStatus(answered) ? answered : undefined;
}

/**
 * A list with nothing in it, shared and never written (`add` makes a list of its own instead): an empty
 * literal pushed to once grew to a backing store of 17 slots, per failed attempt.
 */
const NONE: never[] = [];
const add = <T>(list: T[], value: T): T[] => (list === NONE ? [value] : (list.push(value), list));

/** The answer's body, wherever the client put it: ours, OpenAI/Anthropic SDKs, axios. */
function bodiesOf(e: Obj): readonly unknown[] {
  const response = isObj(e['response']) ? e['response'] : undefined;
  const body = e['body'];
  const error = e['error'];
  const data = response?.['data'];
  const answered = response?.['body'];
  let bodies: unknown[] = NONE;
  if (body !== undefined) bodies = add(bodies, body);
  if (error !== undefined) bodies = add(bodies, error);
  if (data !== undefined) bodies = add(bodies, data);
  if (answered !== undefined) bodies = add(bodies, answered);
  return bodies;
}

/** `error.code`/`error.type` in the body, or on an SDK error object itself. */
function bodyCodes(e: Obj, bodies: readonly unknown[]): readonly string[] {
  let out: string[] = NONE;
  for (const b of bodies) {
    if (isObj(b)) out = takeCodes(b['error'], out);
    out = takeCodes(b, out);
  }
  if (typeof e['status'] === 'number') out = takeCodes(e, out);
  return out;
}

function takeCodes(o: unknown, out: string[]): string[] {
  if (!isObj(o)) return out;
  const code = str(o['code']);
  if (code) out = add(out, code);
  const type = str(o['type']);
  if (type) out = add(out, type);
  return out;
}

/** The first message a body holds (exported for the property test's older classifier, which shares it unchanged). */
export function bodyMessage(bodies: readonly unknown[]): string | undefined {
  for (const b of bodies) {
    if (typeof b === 'string') return b;
    if (!isObj(b)) continue;
    const inner = isObj(b['error']) ? str(b['error']['message']) : str(b['error']);
    const m = inner ?? str(b['message']);
    if (m) return m;
  }
  return undefined;
}

function header(headers: unknown, name: string): string | undefined {
  if (!isObj(headers)) return undefined;
  if (typeof headers['get'] === 'function') {
    const v: unknown = (headers as { get(n: string): unknown }).get(name);
    return str(v);
  }
  // Names, not `Object.entries`: a pair per header for the one (if any) that is read. `Object.keys`, not a for-in with
  // `Object.hasOwn`: for-in also walks the prototype chain, where a service's own headers object may hold a Proxy whose
  // traps throw (a second reader's probe crashed a trial so).
  for (const k of Object.keys(headers)) {
    if (k.toLowerCase() !== name) continue;
    const v = headers[k];
    return Array.isArray(v) ? str(v[0]) : typeof v === 'number' ? String(v) : str(v);
  }
  return undefined;
}

/** The server's wait hint: OpenAI's `retry-after-ms` if present, else `retry-after` in either form (R9). */
function retryAfterOf(e: Obj, nowMs: number): number | undefined {
  const response = isObj(e['response']) ? e['response'] : undefined;
  const own = e['headers'];
  const answered = response?.['headers'];
  return retryAfterIn(own, nowMs) ?? retryAfterIn(answered, nowMs);
}

function retryAfterIn(headers: unknown, nowMs: number): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  return parseRetryAfter(header(headers, 'retry-after'), nowMs);
}

/**
 * The Node/undici code of a socket error, its cause's when fetch wrapped it (exported for the
 * property test's older classifier, which shares it unchanged).
 */
export function systemCode(e: Obj): string | undefined {
  const own = str(e['code']);
  if (own && (lookup(CODE_KINDS, own) !== undefined || own.startsWith('UND_ERR'))) return own;
  // fetch (undici) wraps the socket error: TypeError('fetch failed', { cause }).
  const cause = e['cause'];
  return isObj(cause) ? systemCode(cause) : undefined;
}

function build(kind: ErrorKind, message: string, status?: number, code?: string, retryAfterMs?: number): ErrorData {
  // Key by key in the order conditional spreads gave: one object per failed attempt, not one per optional field.
  const data: Mutable<ErrorData> = {
    kind,
    message: message || kind.replace('_', ' '),
    retryable: TRANSIENT_KINDS.includes(kind),
  };
  if (status !== undefined) data.status = status;
  if (code !== undefined) data.code = code;
  if (retryAfterMs !== undefined) data.retryAfterMs = retryAfterMs;
  return data;
}

const byMessage = kindOfMessage;

/**
 * What went wrong, as data (R1, R2): the error's type first (class name, Node/undici code,
 * HTTP status and body), then patterns in its message. Anything unmatched is `unknown` and
 * not retryable. `nowMs` resolves an HTTP-date `Retry-After` into a wait.
 *
 * @example classifyError(new HttpError(429, 'slow down', undefined, { 'Retry-After': '2' }), now)
 * // { kind: 'rate_limit', message: 'slow down', retryable: true, status: 429, retryAfterMs: 2000 }
 */
export function classifyError(error: unknown, nowMs: number): ErrorData {
  if (typeof error === 'string') return build(byMessage(error), error);
  if (!isObj(error)) return build('unknown', `non-error value thrown: ${String(error)}`);

  const name = str(error['name']) ?? '';
  const message = str(error['message']) ?? '';
  const code = systemCode(error);
  if (code !== undefined)
    return build(
      lookup(CODE_KINDS, code) ?? (code.endsWith('TIMEOUT') ? 'timeout' : 'network'),
      message,
      undefined,
      code,
    );

  const status = statusOf(error);
  if (status !== undefined) {
    const bodies = bodiesOf(error);
    const codes = bodyCodes(error, bodies);
    const said = httpErrorKind(status, codes);
    const text = bodyMessage(bodies) ?? message;
    const kind = kindWithQuota(said, status, codes, text) ?? (status >= 500 ? 'internal' : byMessage(text));
    return build(kind, message || text, status, said.bodyCode ?? codes[0], retryAfterOf(error, nowMs));
  }

  const named = lookup(NAME_KINDS, name);
  if (named !== undefined) return build(named, message, undefined, str(error['code']));
  // A body that does not parse: the server answered, but what it said is lost.
  if (error instanceof SyntaxError || name === 'SyntaxError') return build('unknown', message, undefined, 'EMALFORMED');
  return build(byMessage(message), message, undefined, str(error['code']));
}
