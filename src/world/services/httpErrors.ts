import { HttpError, stackless } from '../../core/index.js';

// Expected answers of the built-in services, met many times per trial by a crowd: no stack (nobody prints one).

/** 404 naming the missing resource and the field that named it. */
export function notFound(param: string, message: string): HttpError {
  return stackless(
    () =>
      new HttpError(404, message, {
        error: { type: 'invalid_request_error', code: 'resource_missing', param, message },
      }),
  );
}

/** 422 for a business rule (R14, R15): names the field and what it requires, so a caller can fix it. */
export function invalidRequest(param: string, message: string, code = 'invalid_value'): HttpError {
  return stackless(
    () => new HttpError(422, message, { error: { type: 'invalid_request_error', code, param, message } }),
  );
}

/** 409: the resource's current state forbids the operation; retrying the same request cannot help. */
export function stateConflict(code: string, message: string): HttpError {
  return stackless(() => new HttpError(409, message, { error: { type: 'invalid_request_error', code, message } }));
}
