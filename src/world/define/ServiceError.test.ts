import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ServiceError, type ServiceErrorInit } from './ServiceError.js';

/** The body as the constructor built it before errorBody: with conditional spreads. */
const spreadBody = (type: string, init: ServiceErrorInit): unknown => ({
  error: {
    type,
    code: init.code,
    ...(init.param === undefined ? {} : { param: init.param }),
    message: init.message,
    ...init.details,
  },
});

const key = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('type', 'code', 'param', 'message', '__proto__', '0', '10', 'constructor'),
);
const details = fc.dictionary(key, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 });
const inits = fc.record(
  {
    code: fc.string({ maxLength: 8 }),
    message: fc.string({ maxLength: 12 }),
    type: fc.string({ maxLength: 8 }),
    param: fc.string({ maxLength: 6 }),
    details,
  },
  { requiredKeys: ['code', 'message'] },
);

describe('ServiceError', () => {
  test.prop([fc.constantFrom(400, 401, 404, 409, 422, 429, 500, 503), inits])(
    'builds the body the spreads built: same keys, same order, same values, same prototype',
    (status, init) => {
      const e = new ServiceError(status, init);
      const expected = spreadBody(e.type, init);
      expect(JSON.stringify(e.body)).toBe(JSON.stringify(expected));
      expect(Object.getOwnPropertyNames((e.body as { error: object }).error)).toEqual(
        Object.getOwnPropertyNames((expected as { error: object }).error),
      );
      expect(Object.getPrototypeOf((e.body as { error: object }).error)).toBe(Object.prototype);
      expect(e.body).toStrictEqual(expected);
    },
  );
});
