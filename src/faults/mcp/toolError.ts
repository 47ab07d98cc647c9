import { TRANSIENT_KINDS, type ErrorData, type ErrorKind } from '../../core/index.js';
import { isHttpError } from '../../core/http.js';
import { parseRetryAfter } from '../../core/retryAfter.js';
import type { FaultKind } from '../fault.js';
import type { Id, Response } from './jsonRpc.js';

/** The error class each refusing fault stands for (R1). */
export const REFUSAL_KINDS: Partial<Record<FaultKind, ErrorKind>> = {
  network: 'network',
  rate_limit: 'rate_limit',
  quota_exceeded: 'quota_exceeded',
  unavailable: 'unavailable',
  permission_denied: 'permission_denied',
  rejected: 'invalid_argument',
  not_found: 'not_found',
  conflict: 'conflict',
  server_error: 'internal',
};

/** What a refusal says, as the HTTP transports would answer it: status, message, headers, body. */
export interface Answer {
  readonly status?: number;
  readonly message?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** The status, message, headers and body of the error a refusing fault makes (as the HTTP transports send it). */
export function answerOf(error: Error): Answer {
  if (!isHttpError(error)) return { message: error.message };
  return {
    status: error.status,
    message: error.message,
    ...(Object.keys(error.headers).length > 0 && { headers: error.headers }),
    ...(error.body !== undefined && { body: error.body }),
  };
}

export function errorOf(kind: ErrorKind, answer: Answer, nowMs: number): ErrorData {
  const { status } = answer;
  const message =
    `${kind}${status === undefined ? '' : ` (${status})`}${answer.message === undefined ? '' : `: ${answer.message}`}, ` +
    `injected by faultline`;
  const retryAfterMs = parseRetryAfter(answer.headers?.['retry-after'], nowMs);
  return {
    kind,
    message,
    retryable: TRANSIENT_KINDS.includes(kind),
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  };
}

/**
 * R16: the failure as MCP's tool error, which a client hands to the model as the tool's answer,
 * with what the plan made it say: `Retry-After` (also as `retryAfterMs`), `headers`, `body`.
 */
export function toolError(id: Id, error: ErrorData, answer: Answer, note: string): Response {
  const text = JSON.stringify({
    error: {
      kind: error.kind,
      ...(error.status !== undefined && { status: error.status }),
      message: `${error.message}: ${note}`,
      retryable: error.retryable,
      ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
      ...(answer.headers && { headers: answer.headers }),
      ...(answer.body !== undefined && { body: answer.body }),
    },
  });
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } };
}
