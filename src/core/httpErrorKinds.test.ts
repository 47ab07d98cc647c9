import { describe, expect, it } from 'vitest';
import { httpErrorKind } from './httpErrorKinds.js';

describe('httpErrorKind', () => {
  it('lets the first body code that names a kind win over the status (R5)', () => {
    expect(httpErrorKind(429, ['whatever', 'insufficient_quota', 'rate_limit_error'])).toEqual({
      kind: 'quota_exceeded',
      bodyCode: 'insufficient_quota',
    });
    expect(httpErrorKind(429, ['whatever'])).toEqual({ kind: 'rate_limit', bodyCode: undefined });
  });

  it('names no kind for an unknown status, nor for an inherited key', () => {
    expect(httpErrorKind(418, ['constructor', 'toString'])).toEqual({ kind: undefined, bodyCode: undefined });
  });
});
