import type { FaultPlan } from '../../src/faults/plan.js';
import { always, ORDER, SHOP } from './support.js';

/** An answer as both clients see it; `body` parsed from the raw text. */
interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly at: number;
}

/** One fault kind, and what a real server under it makes each client see. */
export interface FaultCase {
  readonly name: string;
  readonly plan: FaultPlan;
  /** The `Idempotency-Key` the client sends (none when absent). */
  readonly key?: string;
  readonly fetch: Answer | { readonly error: Record<string, unknown>; readonly at: number };
  readonly axios: Answer | { readonly error: Record<string, unknown>; readonly at: number };
  /** Orders in the world afterwards. */
  readonly orders: number;
  /** The last `response` event: virtual ms since the start, result, status. */
  readonly response: { readonly t: number; readonly result: 'ok' | 'error' | 'lost'; readonly status?: number };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const TEXT_TYPE = { 'content-type': 'text/plain; charset=utf-8' };
const created = { orderId: 'ord-1', ...ORDER, status: 'created' };
const ok = (at = 0): Answer => ({ status: 201, statusText: 'Created', headers: JSON_TYPE, body: created, at });

const fetchTimeout = {
  error: { name: 'TimeoutError', message: 'The operation was aborted due to timeout', code: 23 },
  at: 30_000,
};
const axiosTimeout = {
  error: { name: 'AxiosError', message: 'timeout of 30000ms exceeded', code: 'ECONNABORTED', causeCode: undefined },
  at: 30_000,
};
const fetchReset = (code: string, message: string) => ({
  error: { name: 'TypeError', message: 'fetch failed', code, cause: { name: 'Error', message, code } },
  at: 0,
});
const axiosReset = (code: string, message: string) => ({
  error: { name: 'Error', message, code, causeCode: code },
  at: 0,
});

function refused(
  status: number,
  statusText: string,
  body: unknown,
  headers: Record<string, string> = JSON_TYPE,
): Pick<FaultCase, 'fetch' | 'axios' | 'response' | 'orders'> {
  const answer = { status, statusText, headers, body, at: 0 };
  return { fetch: answer, axios: answer, orders: 0, response: { t: 0, result: 'error', status } };
}

const quota = 'You exceeded your current quota, please check your plan and billing details.';
const serverError = {
  error: { type: 'server_error', message: 'The server had an error while processing your request.' },
};

/** Every fault kind of the plan schema, against `POST /orders` of the orders service. */
export const FAULT_CASES: readonly FaultCase[] = [
  { name: 'no fault', plan: [], fetch: ok(), axios: ok(), orders: 1, response: { t: 0, result: 'ok', status: 201 } },
  {
    name: 'timeout: never answers; the client gives up at its own 30 s',
    plan: always({ kind: 'timeout' }),
    fetch: fetchTimeout,
    axios: axiosTimeout,
    orders: 0,
    response: { t: 30_000, result: 'lost' },
  },
  {
    name: 'latency under the client timeout: committed now, answered 5 s later',
    plan: always({ kind: 'latency', ms: 5_000 }),
    fetch: ok(5_000),
    axios: ok(5_000),
    orders: 1,
    response: { t: 5_000, result: 'ok', status: 201 },
  },
  {
    name: 'latency past the client timeout: committed, the answer is lost (R18)',
    plan: always({ kind: 'latency', ms: 60_000 }),
    fetch: fetchTimeout,
    axios: axiosTimeout,
    orders: 1,
    response: { t: 30_000, result: 'lost' },
  },
  {
    name: 'network ECONNRESET',
    plan: always({ kind: 'network', code: 'ECONNRESET' }),
    fetch: fetchReset('ECONNRESET', 'socket hang up'),
    axios: axiosReset('ECONNRESET', 'socket hang up'),
    orders: 0,
    response: { t: 0, result: 'error' },
  },
  {
    name: 'network ECONNREFUSED',
    plan: always({ kind: 'network', code: 'ECONNREFUSED' }),
    fetch: fetchReset('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:443'),
    axios: axiosReset('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:443'),
    orders: 0,
    response: { t: 0, result: 'error' },
  },
  {
    name: 'network EPIPE',
    plan: always({ kind: 'network', code: 'EPIPE' }),
    fetch: fetchReset('EPIPE', 'write EPIPE'),
    axios: axiosReset('EPIPE', 'write EPIPE'),
    orders: 0,
    response: { t: 0, result: 'error' },
  },
  {
    name: 'rate limit with Retry-After in seconds',
    plan: always({ kind: 'rate_limit', retryAfter: 2 }),
    ...refused(
      429,
      'Too Many Requests',
      {
        error: {
          type: 'requests',
          message: 'Rate limit reached for requests. Please try again in 2s.',
          code: 'rate_limit_exceeded',
        },
      },
      { ...JSON_TYPE, 'retry-after': '2' },
    ),
  },
  {
    name: 'rate limit with Retry-After as an HTTP-date',
    plan: always({ kind: 'rate_limit', retryAfter: 30, retryAfterAs: 'http-date' }),
    ...refused(
      429,
      'Too Many Requests',
      {
        error: {
          type: 'requests',
          message: 'Rate limit reached for requests. Please try again in 30s.',
          code: 'rate_limit_exceeded',
        },
      },
      { ...JSON_TYPE, 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' },
    ),
  },
  {
    name: 'quota exceeded: 429 insufficient_quota, no Retry-After (R5)',
    plan: always({ kind: 'quota_exceeded' }),
    ...refused(429, 'Too Many Requests', {
      error: { type: 'insufficient_quota', message: quota, code: 'insufficient_quota' },
    }),
  },
  {
    name: 'unavailable 500',
    plan: always({ kind: 'unavailable', status: 500 }),
    ...refused(500, 'Internal Server Error', serverError),
  },
  {
    name: 'unavailable 502 from the gateway, in plain text',
    plan: always({ kind: 'unavailable', status: 502 }),
    ...refused(502, 'Bad Gateway', { unparseable: '502 Bad Gateway' }, TEXT_TYPE),
  },
  {
    name: 'unavailable 503 from the gateway, in plain text',
    plan: always({ kind: 'unavailable', status: 503 }),
    ...refused(503, 'Service Unavailable', { unparseable: '503 Service Unavailable' }, TEXT_TYPE),
  },
  {
    name: 'unavailable 504 from the gateway, in plain text',
    plan: always({ kind: 'unavailable', status: 504 }),
    ...refused(504, 'Gateway Timeout', { unparseable: '504 Gateway Timeout' }, TEXT_TYPE),
  },
  {
    name: 'unavailable 529, Anthropic-style overload',
    plan: always({ kind: 'unavailable', status: 529 }),
    ...refused(529, 'Overloaded', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
  },
  {
    name: 'partial write lost as a timeout: committed, never answered (R18)',
    plan: always({ kind: 'partial_write', lostAs: 'timeout' }),
    fetch: fetchTimeout,
    axios: axiosTimeout,
    orders: 1,
    response: { t: 30_000, result: 'lost' },
  },
  {
    name: 'partial write lost as a reset connection',
    plan: always({ kind: 'partial_write', lostAs: 'network' }),
    fetch: fetchReset('ECONNRESET', 'socket hang up'),
    axios: axiosReset('ECONNRESET', 'socket hang up'),
    orders: 1,
    response: { t: 0, result: 'error' },
  },
  {
    name: 'partial write lost as a gateway 504',
    plan: always({ kind: 'partial_write', lostAs: 'unavailable' }),
    ...refused(504, 'Gateway Timeout', { unparseable: '504 Gateway Timeout' }, TEXT_TYPE),
    orders: 1,
  },
  {
    name: 'duplicate delivery without a key: the service executes both copies',
    plan: always({ kind: 'duplicate', copies: 2 }),
    fetch: ok(),
    axios: ok(),
    orders: 2,
    response: { t: 0, result: 'ok', status: 201 },
  },
  {
    name: 'duplicate delivery with an Idempotency-Key: the second copy replays the first (R24)',
    plan: always({ kind: 'duplicate', copies: 2 }),
    key: 'key-1',
    fetch: ok(),
    axios: ok(),
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
  {
    name: 'permission denied 401',
    plan: always({ kind: 'permission_denied', status: 401 }),
    ...refused(401, 'Unauthorized', {
      error: { type: 'authentication_error', message: 'Invalid authentication credentials', code: 'invalid_api_key' },
    }),
  },
  {
    name: 'permission denied 403',
    plan: always({ kind: 'permission_denied', status: 403 }),
    ...refused(403, 'Forbidden', {
      error: { type: 'permission_error', message: 'You do not have permission to perform this action' },
    }),
  },
  {
    name: 'rejected 422',
    plan: always({ kind: 'rejected', message: 'amount too high' }),
    ...refused(422, 'Unprocessable Entity', {
      error: { type: 'unprocessable_entity_error', message: 'amount too high' },
    }),
  },
  {
    name: 'not found 404',
    plan: always({ kind: 'not_found' }),
    ...refused(404, 'Not Found', {
      error: { type: 'not_found_error', message: 'The requested resource was not found' },
    }),
  },
  {
    name: 'conflict 409',
    plan: always({ kind: 'conflict' }),
    ...refused(409, 'Conflict', {
      error: { type: 'conflict_error', message: 'The request conflicts with the current state of the resource' },
    }),
  },
  {
    name: 'server error: delivered, fails before committing',
    plan: always({ kind: 'server_error' }),
    ...refused(500, 'Internal Server Error', serverError),
  },
  {
    name: 'malformed: committed, the JSON body cut short',
    plan: always({ kind: 'malformed' }),
    fetch: {
      status: 201,
      statusText: 'Created',
      headers: JSON_TYPE,
      body: { unparseable: '{"orderId":"ord-1","clientReference":"ref-1","item":"bo' },
      at: 0,
    },
    axios: {
      status: 201,
      statusText: 'Created',
      headers: JSON_TYPE,
      body: { unparseable: '{"orderId":"ord-1","clientReference":"ref-1","item":"bo' },
      at: 0,
    },
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
  // A stream fault strikes only a streamed model answer (test/http/streaming.msw.test.ts): anything else is answered as with no fault, and no fault is recorded.
  // The lies answer 2xx with what the world did not hold; on a write's own answer (here POST /orders):
  {
    name: 'stale on a write: never matches a write, answered as with no fault',
    plan: always({ kind: 'stale', lagMs: 60_000 }),
    fetch: ok(),
    axios: ok(),
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
  {
    name: 'empty: committed, answered 201 with the empty value of an answer that holds no list (null)',
    plan: always({ kind: 'empty' }),
    fetch: { status: 201, statusText: 'Created', headers: JSON_TYPE, body: null, at: 0 },
    axios: { status: 201, statusText: 'Created', headers: JSON_TYPE, body: null, at: 0 },
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
  {
    name: 'truncated on an answer with no list or text to cut: answered as with no fault',
    plan: always({ kind: 'truncated', keep: 1 }),
    fetch: ok(),
    axios: ok(),
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
  {
    name: 'wrong_value: committed, answered 201 with one field replaced by another string (drawn from the trial seed)',
    plan: always({ kind: 'wrong_value', path: 'status' }),
    fetch: { status: 201, statusText: 'Created', headers: JSON_TYPE, body: { ...created, status: 'j0o5nbi' }, at: 0 },
    axios: { status: 201, statusText: 'Created', headers: JSON_TYPE, body: { ...created, status: 'j0o5nbi' }, at: 0 },
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
  {
    name: 'stream_cut on a request that is not a stream: answered as with no fault',
    plan: always({ kind: 'stream_cut', afterEvents: 0 }),
    fetch: ok(),
    axios: ok(),
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
  {
    name: 'stream_stall on a request that is not a stream: answered as with no fault',
    plan: always({ kind: 'stream_stall', afterEvents: 0 }),
    fetch: ok(),
    axios: ok(),
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
  {
    name: 'stream_malformed on a request that is not a stream: answered as with no fault',
    plan: always({ kind: 'stream_malformed', afterEvents: 0 }),
    fetch: ok(),
    axios: ok(),
    orders: 1,
    response: { t: 0, result: 'ok', status: 201 },
  },
];

export const ORDERS_URL = `${SHOP}/orders`;
