import { TRANSIENT_KINDS, type ErrorData, type ErrorKind } from '../core/index.js';
import { httpErrorKind } from '../core/httpErrorKinds.js';
import { parseRetryAfter } from '../core/retryAfter.js';
import { kindOfMessage, QUOTA_TEXT } from '../core/errorText.js';
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
const lookup = <V>(table: Readonly<Record<string, V>>, key: string): V | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

function statusOf(e: Obj): number | undefined {
  const response = isObj(e['response']) ? e['response'] : undefined;
  for (const v of [e['status'], e['statusCode'], response?.['status']]) {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 599) return v;
  }
  return undefined;
}

/** The answer's body, wherever the client put it: ours, OpenAI/Anthropic SDKs, axios. */
function bodiesOf(e: Obj): unknown[] {
  const response = isObj(e['response']) ? e['response'] : undefined;
  return [e['body'], e['error'], response?.['data'], response?.['body']].filter((b) => b !== undefined);
}

/** `error.code`/`error.type` in the body, or on an SDK error object itself. */
function bodyCodes(e: Obj, bodies: readonly unknown[]): string[] {
  const out: string[] = [];
  const take = (o: unknown): void => {
    if (!isObj(o)) return;
    for (const k of ['code', 'type']) {
      const v = str(o[k]);
      if (v) out.push(v);
    }
  };
  for (const b of bodies) {
    if (isObj(b)) take(b['error']);
    take(b);
  }
  if (typeof e['status'] === 'number') take(e);
  return out;
}

function bodyMessage(bodies: readonly unknown[]): string | undefined {
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
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? str(v[0]) : typeof v === 'number' ? String(v) : str(v);
  }
  return undefined;
}

/** The server's wait hint: OpenAI's `retry-after-ms` if present, else `retry-after` in either form (R9). */
function retryAfterOf(e: Obj, nowMs: number): number | undefined {
  const response = isObj(e['response']) ? e['response'] : undefined;
  for (const headers of [e['headers'], response?.['headers']]) {
    const ms = header(headers, 'retry-after-ms');
    if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
    const hint = parseRetryAfter(header(headers, 'retry-after'), nowMs);
    if (hint !== undefined) return hint;
  }
  return undefined;
}

function systemCode(e: Obj): string | undefined {
  const own = str(e['code']);
  if (own && (lookup(CODE_KINDS, own) !== undefined || own.startsWith('UND_ERR'))) return own;
  // fetch (undici) wraps the socket error: TypeError('fetch failed', { cause }).
  const cause = e['cause'];
  return isObj(cause) ? systemCode(cause) : undefined;
}

function build(kind: ErrorKind, message: string, extra: { status?: number | undefined; code?: string | undefined; retryAfterMs?: number | undefined } = {}): ErrorData {
  // Key by key in the order conditional spreads gave: one object per failed attempt, not one per optional field.
  const data: Mutable<ErrorData> = { kind, message: message || kind.replace('_', ' '), retryable: TRANSIENT_KINDS.includes(kind) };
  if (extra.status !== undefined) data.status = extra.status;
  if (extra.code !== undefined) data.code = extra.code;
  if (extra.retryAfterMs !== undefined) data.retryAfterMs = extra.retryAfterMs;
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
  if (code !== undefined) return build(lookup(CODE_KINDS, code) ?? (code.endsWith('TIMEOUT') ? 'timeout' : 'network'), message, { code });

  const status = statusOf(error);
  if (status !== undefined) {
    const bodies = bodiesOf(error);
    const codes = bodyCodes(error, bodies);
    const { kind: httpKind, bodyCode } = httpErrorKind(status, codes);
    const text = bodyMessage(bodies) ?? message;
    let kind: ErrorKind | undefined = httpKind;
    if (kind === 'rate_limit' && status === 429 && bodyCode === undefined && QUOTA_TEXT.test(`${codes.join(' ')} ${text}`)) kind = 'quota_exceeded';
    kind ??= status >= 500 ? 'internal' : byMessage(text);
    return build(kind, message || text, { status, code: bodyCode ?? codes[0], retryAfterMs: retryAfterOf(error, nowMs) });
  }

  const named = lookup(NAME_KINDS, name);
  if (named !== undefined) return build(named, message, { code: str(error['code']) });
  // A body that does not parse: the server answered, but what it said is lost.
  if (error instanceof SyntaxError || name === 'SyntaxError') return build('unknown', message, { code: 'EMALFORMED' });
  return build(byMessage(message), message, { code: str(error['code']) });
}
