import { HttpError } from '../../core/index.js';

/** 404 naming the missing resource and the field that named it. */
export function notFound(param: string, message: string): HttpError {
  return new HttpError(404, message, { error: { type: 'invalid_request_error', code: 'resource_missing', param, message } });
}

/** 422 for a business rule (R14, R15): names the field and what it requires, so a caller can fix it. */
export function invalidRequest(param: string, message: string, code = 'invalid_value'): HttpError {
  return new HttpError(422, message, { error: { type: 'invalid_request_error', code, param, message } });
}

/** 409: the resource's current state forbids the operation; retrying the same request cannot help. */
export function stateConflict(code: string, message: string): HttpError {
  return new HttpError(409, message, { error: { type: 'invalid_request_error', code, message } });
}
