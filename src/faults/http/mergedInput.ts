import type { RouteRequest } from './HttpRoute.js';
import { parseForm } from './requestBody.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A route's input when it declares no mapper: query parameters (read like a form, so
 * `expand[]=a` is `['a']`), the body's fields over them, and path parameters over both (the
 * URL names the resource; a body cannot redirect it). A body that is not an object (text,
 * an array) is not merged: such a route needs its own `input`.
 *
 * @example
 * // GET /tickets/t-1?fields=all → { fields: 'all', ticketId: 't-1' }; POST /tickets {subject} → { subject }
 */
export function mergedInput(req: RouteRequest): Record<string, unknown> {
  const query = req.query.size === 0 ? {} : parseForm(req.query.toString());
  return { ...query, ...(isRecord(req.body) ? req.body : {}), ...req.params };
}
