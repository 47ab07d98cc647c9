import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, TimeoutError, systemError } from '../core/index.js';
import { classifyError } from './classify.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const abortError = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
const zodError = z.object({ a: z.string() }).safeParse({}).error;
const undici = new TypeError('fetch failed', { cause: systemError('UND_ERR_SOCKET', 'other side closed') });
const openaiQuota = Object.assign(
  new Error('429 You exceeded your current quota, please check your plan and billing details.'),
  {
    status: 429,
    headers: { 'x-request-id': 'r' },
    error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
    code: 'insufficient_quota',
    type: 'insufficient_quota',
  },
);
const openaiRate = Object.assign(new Error('429 Rate limit reached for gpt-4o'), {
  status: 429,
  headers: new Headers({ 'retry-after-ms': '1500', 'retry-after': '2' }),
  error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
});
const anthropicOverloaded = Object.assign(new Error('Overloaded'), {
  status: 529,
  error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
});
const axios404 = Object.assign(new Error('Request failed with status code 404'), {
  isAxiosError: true,
  response: { status: 404, data: {}, headers: {} },
});
const axios429 = Object.assign(new Error('Request failed with status code 429'), {
  response: { status: 429, data: 'slow down', headers: { 'Retry-After': '7' } },
});
const billing429 = new HttpError(429, 'Too Many Requests', { error: { message: 'Your credit balance is too low' } });

describe('classifyError', () => {
  it.each<[string, unknown, Record<string, unknown>]>([
    ['TimeoutError', new TimeoutError(1000), { kind: 'timeout', retryable: true, code: 'ETIMEDOUT' }],
    ['AbortError', abortError, { kind: 'timeout', retryable: true }],
    ['ETIMEDOUT', systemError('ETIMEDOUT', 'connect ETIMEDOUT'), { kind: 'timeout', code: 'ETIMEDOUT' }],
    ['ESOCKETTIMEDOUT', systemError('ESOCKETTIMEDOUT', 'x'), { kind: 'timeout' }],
    [
      'ECONNRESET',
      systemError('ECONNRESET', 'socket hang up'),
      { kind: 'network', retryable: true, code: 'ECONNRESET' },
    ],
    ['ECONNREFUSED', systemError('ECONNREFUSED', 'connect ECONNREFUSED'), { kind: 'network', code: 'ECONNREFUSED' }],
    ['EPIPE', systemError('EPIPE', 'write EPIPE'), { kind: 'network' }],
    ['ENOTFOUND', systemError('ENOTFOUND', 'getaddrinfo ENOTFOUND x'), { kind: 'network' }],
    ['EAI_AGAIN', systemError('EAI_AGAIN', 'x'), { kind: 'network' }],
    ['ENETUNREACH', systemError('ENETUNREACH', 'x'), { kind: 'network' }],
    ['undici cause', undici, { kind: 'network', code: 'UND_ERR_SOCKET' }],
    ['undici headers timeout', systemError('UND_ERR_HEADERS_TIMEOUT', 'x'), { kind: 'timeout' }],
    ['408', new HttpError(408, 'Request Timeout'), { kind: 'timeout', status: 408, retryable: true }],
    [
      '429 rate limit',
      new HttpError(429, 'Too Many Requests', undefined, { 'Retry-After': '3' }),
      { kind: 'rate_limit', retryable: true, retryAfterMs: 3_000 },
    ],
    [
      '429 insufficient_quota (OpenAI SDK)',
      openaiQuota,
      { kind: 'quota_exceeded', retryable: false, status: 429, code: 'insufficient_quota' },
    ],
    ['429 billing text', billing429, { kind: 'quota_exceeded', retryable: false }],
    [
      '429 OpenAI rate limit, retry-after-ms',
      openaiRate,
      { kind: 'rate_limit', code: 'rate_limit_exceeded', retryAfterMs: 1_500 },
    ],
    ['400', new HttpError(400, 'bad'), { kind: 'invalid_argument', retryable: false, status: 400 }],
    [
      '422',
      new HttpError(422, 'idempotency key reused', { error: { type: 'idempotency_error' } }),
      { kind: 'invalid_argument', code: 'idempotency_error' },
    ],
    ['401', new HttpError(401, 'unauthorized'), { kind: 'permission_denied', retryable: false }],
    ['403', new HttpError(403, 'forbidden'), { kind: 'permission_denied' }],
    ['404', new HttpError(404, 'no order'), { kind: 'not_found', retryable: false }],
    ['404 axios', axios404, { kind: 'not_found', status: 404 }],
    ['429 axios', axios429, { kind: 'rate_limit', retryAfterMs: 7_000 }],
    ['409', new HttpError(409, 'in progress'), { kind: 'conflict', retryable: false }],
    ['500', new HttpError(500, 'oops'), { kind: 'internal', retryable: false }],
    ['502', new HttpError(502, 'bad gateway'), { kind: 'unavailable', retryable: true }],
    ['503', new HttpError(503, 'busy'), { kind: 'unavailable' }],
    ['504', new HttpError(504, 'gateway timeout'), { kind: 'unavailable' }],
    ['529', new HttpError(529, 'overloaded'), { kind: 'unavailable' }],
    ['Anthropic overloaded_error', anthropicOverloaded, { kind: 'unavailable', code: 'overloaded_error', status: 529 }],
    ['statusCode', Object.assign(new Error('x'), { statusCode: 503 }), { kind: 'unavailable', status: 503 }],
    ['ZodError', zodError, { kind: 'invalid_argument', retryable: false }],
    [
      'SyntaxError',
      new SyntaxError('Unexpected end of JSON input'),
      { kind: 'unknown', code: 'EMALFORMED', retryable: false },
    ],
    ['msw failed to fetch', new TypeError('Failed to fetch'), { kind: 'network', retryable: true }],
    ['message: rate limit', new Error('Rate limit exceeded, slow down'), { kind: 'rate_limit' }],
    ['message: timed out', new Error('operation timed out'), { kind: 'timeout' }],
    ['message: permission', new Error('Permission denied for user'), { kind: 'permission_denied' }],
    ['message: quota', new Error('You exceeded your current quota'), { kind: 'quota_exceeded' }],
    ['unmatched', new Error('the flux capacitor is sad'), { kind: 'unknown', retryable: false }],
    ['a string', 'Service Unavailable', { kind: 'unavailable' }],
    ['a number', 42, { kind: 'unknown', retryable: false }],
    [
      'a prototype name',
      Object.assign(new Error('x y z'), { name: 'constructor', code: 'toString' }),
      { kind: 'unknown' },
    ],
  ])('%s', (_name, error, expected) => {
    expect(classifyError(error, NOW)).toMatchObject(expected);
  });

  it('reads an HTTP-date Retry-After against now, and a past date as 0', () => {
    const at = new Date(NOW + 90_000).toUTCString();
    expect(classifyError(new HttpError(429, 'x', undefined, { 'RETRY-AFTER': at }), NOW).retryAfterMs).toBe(90_000);
    const past = new Date(NOW - 5_000).toUTCString();
    expect(classifyError(new HttpError(503, 'x', undefined, { 'retry-after': past }), NOW).retryAfterMs).toBe(0);
  });

  it("reads a headers object's own names only, never its prototype chain (a Proxy there may throw)", () => {
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
        getOwnPropertyDescriptor: () => {
          throw new Error('trap');
        },
      },
    );
    const headers = Object.assign(Object.create(trap) as Record<string, string>, { 'retry-after': '3' });
    expect(classifyError(new HttpError(429, 'x', undefined, headers), NOW).retryAfterMs).toBe(3_000);
  });

  it('keeps unknown fields out and returns plain data', () => {
    expect(classifyError(new HttpError(503, 'busy'), NOW)).toEqual({
      kind: 'unavailable',
      message: 'busy',
      retryable: true,
      status: 503,
    });
  });

  test.prop([
    fc.integer({ min: 400, max: 599 }),
    fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }),
    fc.option(fc.constantFrom('ECONNRESET', 'ETIMEDOUT', 'EPIPE'), { nil: undefined }),
  ])(
    'lists its fields in one order, whichever are present: kind, message, retryable, status, code, retryAfterMs',
    (status, retryAfter, code) => {
      const headers = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
      for (const error of [
        new HttpError(status, 'no', undefined, headers),
        ...(code === undefined ? [] : [systemError(code, 'socket')]),
      ]) {
        const keys = Object.keys(classifyError(error, 0));
        const order = ['kind', 'message', 'retryable', 'status', 'code', 'retryAfterMs'];
        expect(keys).toEqual(order.filter((k) => keys.includes(k)));
        expect(keys.slice(0, 3)).toEqual(['kind', 'message', 'retryable']);
      }
    },
  );
});
