import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.js';
import { HttpError, isHttpError } from './http.js';
import { stackless } from './stackless.js';

const kHttpError = Symbol.for('faultline.HttpError');

/** `HttpError` as it was written before its constructor wrote its fields itself: class fields and parameter properties. */
class FieldsHttpError extends Error {
  override readonly name: string = 'HttpError';
  readonly [kHttpError] = true;
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = undefined,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** Every own property but the stack (it names the class it was built in), with its attributes, in order. */
const ownShape = (error: Error): unknown[] =>
  Reflect.ownKeys(error)
    .filter((k) => k !== 'stack')
    .map((k) => [typeof k === 'symbol' ? k.toString() : k, Object.getOwnPropertyDescriptor(error, k)]);

const json = fc.jsonValue();
const args = fc.record(
  {
    status: fc.integer({ min: 100, max: 599 }),
    message: fc.string(),
    body: fc.oneof(fc.constant(undefined), fc.string(), json),
    headers: fc.oneof(fc.constant(undefined), fc.dictionary(fc.string({ minLength: 1 }), fc.string())),
  },
  { requiredKeys: ['status', 'message'] },
);

describe('HttpError', () => {
  it('is built with the same own properties, attributes, key order and prototype as the class-field form', () => {
    fc.assert(
      fc.property(args, fc.boolean(), ({ status, message, body, headers }, withStack) => {
        const make = <E extends Error>(f: () => E): E => (withStack ? f() : stackless(f));
        const argList = headers === undefined ? (body === undefined ? [] : [body]) : [body, headers];
        const now = make(() => new HttpError(status, message, ...(argList as [unknown, Record<string, string>])));
        const then = make(
          () => new FieldsHttpError(status, message, ...(argList as [unknown, Record<string, string>])),
        );
        expect(ownShape(now)).toEqual(ownShape(then));
        expect(Object.keys(now)).toEqual(Object.keys(then));
        expect(JSON.stringify(now)).toBe(JSON.stringify(then));
        expect(canonicalJson({ ...now })).toBe(canonicalJson({ ...then }));
        expect(Object.getOwnPropertySymbols({ ...now })).toEqual(Object.getOwnPropertySymbols({ ...then }));
        expect(String(now)).toBe(String(then));
        expect(now.stack?.split('\n')[0]).toBe(then.stack?.split('\n')[0]);
        expect(now).toBeInstanceOf(HttpError);
        expect(now).toBeInstanceOf(Error);
        expect(Object.getPrototypeOf(now)).toBe(HttpError.prototype);
        expect(isHttpError(now) && isHttpError(then)).toBe(true);
        expect([now.name, now.message, now.status, now.body, now.headers]).toEqual([
          then.name,
          then.message,
          then.status,
          then.body,
          then.headers,
        ]);
      }),
    );
  });
});
