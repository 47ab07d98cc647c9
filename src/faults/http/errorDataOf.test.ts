import { describe, expect, it } from 'vitest';
import { faultError } from '../faultError.js';
import { errorDataOf } from './errorDataOf.js';
import { answerOf, respond } from './HttpAnswer.js';

describe('errorDataOf', () => {
  it('reads a quota 429 by its body, not its status (R5)', () => {
    expect(errorDataOf(answerOf(faultError({ kind: 'quota_exceeded' }, 0)), 0)).toEqual({
      kind: 'quota_exceeded',
      message: 'You exceeded your current quota, please check your plan and billing details.',
      retryable: false,
      status: 429,
      code: 'insufficient_quota',
    });
  });

  it('keeps a rate limit transient with its Retry-After, and an overload unavailable', () => {
    expect(errorDataOf(answerOf(faultError({ kind: 'rate_limit', retryAfter: 3 }, 0)), 0)).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
      retryAfterMs: 3_000,
    });
    // The HTTP-date form, 30 s after the answer: read like the runtime's classifier reads it (R9).
    expect(
      errorDataOf(
        answerOf(faultError({ kind: 'rate_limit', retryAfter: 30, retryAfterAs: 'http-date' }, 1_000_000)),
        1_000_000,
      ),
    ).toMatchObject({ kind: 'rate_limit', retryAfterMs: 30_000 });
    expect(errorDataOf(answerOf(faultError({ kind: 'unavailable', status: 529 }, 0)), 0)).toMatchObject({
      kind: 'unavailable',
      retryable: true,
      status: 529,
      code: 'overloaded_error',
    });
  });

  it('is undefined for a success, network for a dropped connection, timeout for silence', () => {
    expect(errorDataOf(respond(200, { ok: true }), 0)).toBeUndefined();
    expect(errorDataOf({ kind: 'network', code: 'ECONNRESET', message: 'socket hang up' }, 0)).toEqual({
      kind: 'network',
      message: 'socket hang up',
      retryable: true,
      code: 'ECONNRESET',
    });
    expect(errorDataOf({ kind: 'hang', reason: 'no answer' }, 0)).toEqual({
      kind: 'timeout',
      message: 'no answer',
      retryable: true,
    });
  });

  it("reads statuses and body codes with the execution layer's tables (402 and 413 included)", () => {
    expect(errorDataOf(respond(402, {}), 0)).toEqual({
      kind: 'quota_exceeded',
      message: '402 Payment Required',
      retryable: false,
      status: 402,
    });
    expect(errorDataOf(respond(413, {}), 0)).toEqual({
      kind: 'invalid_argument',
      message: '413 Payload Too Large',
      retryable: false,
      status: 413,
    });
    expect(errorDataOf(respond(400, { error: { code: 'billing_hard_limit_reached', message: 'limit' } }), 0)).toEqual({
      kind: 'quota_exceeded',
      message: 'limit',
      retryable: false,
      status: 400,
      code: 'billing_hard_limit_reached',
    });
  });
});
