import { describe, expect, it } from 'vitest';
import { HttpError } from '../core/index.js';
import { faultError, isFaultError, lostAnswerError, serverError } from './faultError.js';

describe('isFaultError', () => {
  it('knows the errors a fault made, and no copy or look-alike of them', () => {
    const made = [
      faultError({ kind: 'unavailable', status: 503 }, 0),
      faultError({ kind: 'network', code: 'ECONNRESET' }, 0),
      faultError({ kind: 'rate_limit', retryAfter: 2, headers: { 'X-Own': '1' } }, 0),
      lostAnswerError('unavailable'),
      lostAnswerError('network'),
      serverError({ kind: 'server_error' }),
    ];
    for (const e of made) expect(isFaultError(e), e.message).toBe(true);
    const first = made[0]!;
    expect(isFaultError({ ...first })).toBe(false);
    expect(isFaultError(Object.create(first))).toBe(false);
    expect(isFaultError(new HttpError(503, first.message, (first as HttpError).body))).toBe(false);
    expect(isFaultError(null)).toBe(false);
    expect(isFaultError('503')).toBe(false);
  });

  it('leaves what JSON, Object.keys and a spread see of the error as it was', () => {
    const e = faultError({ kind: 'unavailable', status: 503 }, 0);
    expect(Object.keys(e)).toEqual(Object.keys(new HttpError(503, 'Service Unavailable', '503 Service Unavailable')));
    expect(JSON.stringify(e)).toBe(
      JSON.stringify(new HttpError(503, 'Service Unavailable', '503 Service Unavailable')),
    );
  });

  it('brands the error without a property of its own: its own keys are those of the error unbranded, and a clone is no fault', () => {
    const plain = (error: Error): unknown[] => Reflect.ownKeys(error).filter((k) => k !== 'stack');
    const refused = faultError({ kind: 'rate_limit', retryAfter: 2 }, 0) as HttpError;
    expect(plain(refused)).toEqual(
      plain(new HttpError(refused.status, refused.message, refused.body, refused.headers)),
    );
    const reset = faultError({ kind: 'network', code: 'ECONNRESET' }, 0);
    expect(plain(reset)).toEqual(['message', 'code']);
    expect(isFaultError(structuredClone(reset))).toBe(false);
    expect(isFaultError(Object.assign(new Error(reset.message), reset))).toBe(false);
  });
});
