import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HttpError,
  TRANSIENT_KINDS,
  TimeoutError,
  systemError,
  type ErrorData,
  type ErrorKind,
} from '../core/index.js';
import { kindOfMessage } from '../core/errorText.js';
import { httpErrorKind, kindWithQuota } from '../core/httpErrorKinds.js';
import type { Mutable } from '../core/Mutable.js';
import { parseRetryAfter } from '../core/retryAfter.js';
import { bodyMessage, classifyError, CODE_KINDS, NAME_KINDS, systemCode } from './classify.js';

// The classifier as it was before it read into locals instead of arrays and closures: the law the new form keeps.
type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** Own keys only: `'constructor' in table` must not classify anything. */
const lookup = <V>(table: Readonly<Record<string, V>>, key: string): V | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

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

function build(
  kind: ErrorKind,
  message: string,
  extra: { status?: number | undefined; code?: string | undefined; retryAfterMs?: number | undefined } = {},
): ErrorData {
  // Key by key in the order conditional spreads gave: one object per failed attempt, not one per optional field.
  const data: Mutable<ErrorData> = {
    kind,
    message: message || kind.replace('_', ' '),
    retryable: TRANSIENT_KINDS.includes(kind),
  };
  if (extra.status !== undefined) data.status = extra.status;
  if (extra.code !== undefined) data.code = extra.code;
  if (extra.retryAfterMs !== undefined) data.retryAfterMs = extra.retryAfterMs;
  return data;
}

function oldClassifyError(error: unknown, nowMs: number): ErrorData {
  if (typeof error === 'string') return build(kindOfMessage(error), error);
  if (!isObj(error)) return build('unknown', `non-error value thrown: ${String(error)}`);

  const name = str(error['name']) ?? '';
  const message = str(error['message']) ?? '';
  const code = systemCode(error);
  if (code !== undefined)
    return build(lookup(CODE_KINDS, code) ?? (code.endsWith('TIMEOUT') ? 'timeout' : 'network'), message, { code });

  const status = statusOf(error);
  if (status !== undefined) {
    const bodies = bodiesOf(error);
    const codes = bodyCodes(error, bodies);
    const said = httpErrorKind(status, codes);
    const text = bodyMessage(bodies) ?? message;
    const kind = kindWithQuota(said, status, codes, text) ?? (status >= 500 ? 'internal' : kindOfMessage(text));
    return build(kind, message || text, {
      status,
      code: said.bodyCode ?? codes[0],
      retryAfterMs: retryAfterOf(error, nowMs),
    });
  }

  const named = lookup(NAME_KINDS, name);
  if (named !== undefined) return build(named, message, { code: str(error['code']) });
  // A body that does not parse: the server answered, but what it said is lost.
  if (error instanceof SyntaxError || name === 'SyntaxError') return build('unknown', message, { code: 'EMALFORMED' });
  return build(kindOfMessage(message), message, { code: str(error['code']) });
}

const text = fc.oneof(
  fc.constantFrom(
    '',
    'Service Unavailable',
    'socket hang up',
    'insufficient_quota',
    'Rate limit reached',
    'billing',
    'timed out',
    'constructor',
    'fetch failed',
  ),
  fc.string({ maxLength: 6 }),
);
const code = fc.constantFrom(
  ...Object.keys(CODE_KINDS),
  'UND_ERR_SOCKET',
  'UND_ERR_X_TIMEOUT',
  'insufficient_quota',
  'rate_limit_exceeded',
  'overloaded_error',
  'constructor',
  'EOTHER',
  '',
);
const statusLike = fc.oneof(
  fc.integer({ min: 99, max: 600 }),
  fc.constantFrom(429, 503, 529, 500, 404, 408),
  fc.double(),
  fc.string({ maxLength: 3 }),
);
const headerValue = fc.oneof(
  fc.constantFrom('2', '1.5', ' 7 ', 'Wed, 21 Oct 2015 07:28:00 GMT', 'soon', ''),
  fc.nat(100),
  fc.array(fc.constantFrom('3', 'x'), { maxLength: 2 }),
);
const headerName = fc.constantFrom('retry-after', 'Retry-After', 'RETRY-AFTER-MS', 'retry-after-ms', 'x-request-id');
const headers = fc.oneof(
  fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
  fc.dictionary(headerName, fc.constantFrom('2', '1500', 'x'), { maxKeys: 2 }).map((h) => new Headers(h)),
  fc.constant(undefined),
  // Names a prototype lends and own names hidden from enumeration: neither is a header `Object.keys` would list.
  fc
    .tuple(
      fc.dictionary(headerName, headerValue, { maxKeys: 2 }),
      fc.dictionary(headerName, headerValue, { maxKeys: 2 }),
      fc.dictionary(headerName, headerValue, { maxKeys: 2 }),
    )
    .map(([lent, own, hidden]) => {
      const h = Object.assign(Object.create(lent) as Record<string, unknown>, own);
      for (const [k, v] of Object.entries(hidden))
        Object.defineProperty(h, k, { value: v, enumerable: false, configurable: true, writable: true });
      return h;
    }),
);
const inner = fc.record({ code, type: code, message: text }, { requiredKeys: [] });
const body = fc.oneof(
  text,
  inner,
  fc.record({ error: fc.oneof(inner, text), message: text, code, type: code }, { requiredKeys: [] }),
  fc.constant(undefined),
);
const fields = fc.record(
  {
    name: fc.constantFrom(...Object.keys(NAME_KINDS), 'SyntaxError', 'Error', 'HttpError', 'constructor'),
    message: text,
    code,
    status: statusLike,
    statusCode: statusLike,
    body,
    error: body,
    headers,
    type: code,
    response: fc.record({ status: statusLike, data: body, body, headers }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const errorLike: fc.Arbitrary<unknown> = fc.oneof(
  fields,
  fields.map((f) => Object.assign(new Error(typeof f.message === 'string' ? f.message : 'x'), f)),
  fields.map((f) => Object.assign(new SyntaxError('Unexpected end of JSON input'), f)),
  fc
    .tuple(fields, code)
    .map(([f, c]) => Object.assign(new TypeError('fetch failed', { cause: systemError(c, 'other side closed') }), f)),
  fc
    .tuple(fc.integer({ min: 100, max: 599 }), text, body, headers)
    .map(
      ([s, m, b, h]) =>
        new HttpError(s, m, b, h instanceof Headers || h === undefined ? {} : (h as Record<string, string>)),
    ),
  fc.nat(5_000).map((ms) => new TimeoutError(ms)),
  fc.oneof(text, fc.constant(null), fc.constant(undefined), fc.integer()),
);

describe('classifyError', () => {
  it('classifies anything exactly as its form with arrays and closures did, keys in the same order', () => {
    fc.assert(
      fc.property(errorLike, fc.integer({ min: 0, max: 2 ** 41 }), (error, now) => {
        const was = oldClassifyError(error, now);
        const is = classifyError(error, now);
        expect(is).toEqual(was);
        expect(JSON.stringify(is)).toBe(JSON.stringify(was));
      }),
      { numRuns: 2_000 },
    );
  });
});
