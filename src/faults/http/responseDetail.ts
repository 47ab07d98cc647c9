import type { ErrorKind } from '../../core/index.js';
import { errorDataOf } from './errorDataOf.js';
import type { HttpAnswer } from './HttpAnswer.js';

/** What a `response` event says of a failed answer: its message, its class and the server's wait hint (R5, R9). */
export interface ResponseDetail {
  readonly message?: string;
  readonly errorKind?: ErrorKind;
  /** The `Retry-After` header as sent. */
  readonly retryAfter?: string;
  readonly retryAfterMs?: number;
}

/** Nothing for a success; for a failure, as the execution layer's classifier would read it. */
export function responseDetail(answer: HttpAnswer, nowMs: number): ResponseDetail {
  const error = errorDataOf(answer, nowMs);
  if (!error) return {};
  const header = answer.kind === 'respond' ? answer.headers['retry-after'] : undefined;
  return {
    message: error.message,
    errorKind: error.kind,
    ...(header === undefined ? {} : { retryAfter: header }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  };
}
