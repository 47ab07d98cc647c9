import type { HttpFields, NetworkLegs } from '../../core/index.js';
import type { LatencyTarget, LegDraws } from '../network.js';
import type { CallPosition } from './CallTracker.js';
import type { ErrorMapper, HttpRequestData, HttpRoute, RouteMatch } from './HttpRoute.js';

/** A service as the engine looks requests up in it. */
export interface ServedService {
  readonly origin: string;
  readonly prefix: string;
  readonly routes: readonly HttpRoute[];
  readonly error: ErrorMapper | undefined;
  readonly name: string | undefined;
}

/** One request on its way through: its ids and what went over the wire. */
export interface Exchange {
  readonly request: string;
  readonly match: RouteMatch;
  readonly service: ServedService;
  readonly data: HttpRequestData;
  readonly position: CallPosition;
  readonly http: HttpFields;
  readonly sentAt: number;
  /** The legs drawn for it, with a network. */
  readonly legs: LegDraws | undefined;
  readonly target: LatencyTarget | undefined;
  /** An answer was produced and sent back (it may be lost on its way): its response leg counts. */
  sentBack: boolean;
}

/** The logical call and attempt the exchange belongs to, as every event of it names them. */
export function corrOf(ex: Exchange): { call: string; attempt: number } {
  return { call: ex.position.call, attempt: ex.position.attempt };
}

/** The legs the exchange travelled: the response leg only when an answer was sent back. */
export function legsOf(ex: Exchange): { legs?: NetworkLegs } {
  if (!ex.legs) return {};
  return { legs: ex.sentBack ? ex.legs : { request: ex.legs.request } };
}

/** A read settles with a 404 as with a 200: asking again is polling for the resource, a new call, not attempt n + 1. */
export function isRead(ex: Exchange): boolean {
  const risk = ex.match.route.risk;
  return risk === undefined ? ex.http.method === 'GET' || ex.http.method === 'HEAD' : risk === 'read';
}
