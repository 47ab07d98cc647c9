import { isHttpError } from '../../core/index.js';
import { isFaultError } from '../faultError.js';
import { answerOf, crashOrNetwork, isAnswer, isStatus, respond, type HttpAnswer } from './HttpAnswer.js';
import type { ErrorMapper, ErrorRendering, RouteRequest } from './HttpRoute.js';

/** The HTTP status an error carries: an `HttpError`'s, or any error's own `status` field (a business error class). */
function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return isStatus(status) ? status : undefined;
}

/** A rendering's missing parts filled from the error: its status (else 500), its headers under the mapper's, its body. */
function rendered(error: unknown, r: ErrorRendering): HttpAnswer {
  const own = isHttpError(error) ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const body = r.body !== undefined ? r.body : (own?.body ?? { error: { message } });
  return respond(r.status ?? statusOf(error) ?? 500, body, { ...own?.headers, ...r.headers });
}

/**
 * The answer to an error a route threw: rendered by the first mapper that takes it (the
 * route's, then the service's), else `answerOf`. An error a fault made skips the mappers, so
 * the fault's own status, headers and body go out, on the first request and on a replay. A
 * mapper that throws is a crash: a 500.
 */
export function errorAnswer(
  error: unknown,
  req: RouteRequest,
  mappers: readonly (ErrorMapper | undefined)[],
): HttpAnswer {
  if (isFaultError(error)) return answerOf(error);
  for (const mapper of mappers) {
    if (!mapper) continue;
    try {
      const r = mapper(error, req);
      if (r === undefined) continue;
      return isAnswer(r) ? r : rendered(error, r);
    } catch (crash) {
      return crashOrNetwork(crash);
    }
  }
  return answerOf(error);
}
