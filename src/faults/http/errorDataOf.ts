import { TRANSIENT_KINDS, type ErrorData, type ErrorKind } from '../../core/index.js';
import { httpErrorKind } from '../../core/httpErrorKinds.js';
import { parseRetryAfter } from '../../core/retryAfter.js';
import type { HttpAnswer } from './HttpAnswer.js';

/** The codes and message of an `{ error: { code, type, message } }` body; nothing for any other body. */
function bodyError(body: string): { codes: string[]; message?: string } {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; type?: unknown; message?: unknown } } | null;
    const e = parsed?.error;
    const codes = [e?.code, e?.type].filter((c): c is string => typeof c === 'string');
    return typeof e?.message === 'string' ? { codes, message: e.message } : { codes };
  } catch {
    return { codes: [] };
  }
}

function build(
  kind: ErrorKind,
  message: string,
  extra: { status?: number; code?: string; retryAfterMs?: number } = {},
): ErrorData {
  return { kind, message, retryable: TRANSIENT_KINDS.includes(kind), ...extra };
}

/**
 * What a failed answer means, as data (R1, R5): the same classes the execution layer uses,
 * read from the status, the body's error code and `Retry-After`. `undefined` for a success.
 * A hang reads as the client's timeout.
 */
export function errorDataOf(answer: HttpAnswer, nowMs: number): ErrorData | undefined {
  switch (answer.kind) {
    case 'network':
      return build('network', answer.message, { code: answer.code });
    case 'hang':
      return build('timeout', answer.reason);
    case 'stream':
      // How a stream ends (cut, stalled, malformed) is known only once it has: `HttpFaults` records it then.
      return undefined;
    case 'respond': {
      if (answer.status < 400) return undefined;
      const { codes, message } = bodyError(answer.body);
      const { kind: httpKind, bodyCode: code } = httpErrorKind(answer.status, codes);
      const kind = httpKind ?? (answer.status >= 500 ? 'internal' : 'unknown');
      // Both forms of R9: delta-seconds and an HTTP-date, read as the runtime's classifier reads them.
      const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], nowMs);
      return build(kind, message ?? `${answer.status} ${answer.statusText}`.trim(), {
        status: answer.status,
        ...((code ?? codes[0]) === undefined ? {} : { code: (code ?? codes[0])! }),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
  }
}
