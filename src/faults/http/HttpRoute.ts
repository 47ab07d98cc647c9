import type { Clock } from '../../core/index.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One intercepted request, as both adapters hand it over: plain data, body already read. */
export interface HttpRequestData {
  readonly method: string;
  readonly url: string;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a route's `input` sees of the request. */
export interface RouteRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The body parsed as JSON, or `undefined` when empty; a body that is not JSON is the string itself. */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** What a route's `serve` runs with: the world's time, the request ids, and the fault's demand to fail. */
export interface ServeContext {
  readonly clock: Clock;
  readonly request: string;
  readonly idempotencyKey?: string;
  /** Set by a `server_error` fault: fail with it after accepting the request, before committing. */
  readonly failure?: Error;
}

/**
 * One endpoint of a faulted HTTP service: which requests it takes, the operation name a fault
 * plan matches as `tool`, and the business logic behind it. `serve` throws `HttpError` for
 * business errors, as the in-process services do.
 */
export interface HttpRoute {
  readonly method: HttpMethod;
  /** `/orders/:orderId`: `:name` segments become `params`. */
  readonly path: string;
  /** What a fault plan's `match.tool` names; `create_order`, or `model:openai.chat.completions`. */
  readonly operation: string;
  /** A status query is reconciliation, matched by `purpose: status` rules only (as on the in-process wire). */
  readonly purpose?: 'call' | 'status';
  /** `model` routes record failures as `model_error` (R3): a model-API 429 is not a tool failure. */
  readonly kind?: 'tool' | 'model';
  /** The status of a successful answer (default 200). */
  readonly okStatus?: number;
  input(req: RouteRequest): unknown;
  serve(input: unknown, ctx: ServeContext): Promise<unknown> | unknown;
}

/** A route found for a request, with its path parameters. */
export interface RouteMatch {
  readonly route: HttpRoute;
  readonly params: Readonly<Record<string, string>>;
}

/** The route for `method` and `pathname`, trying routes in order; `undefined` when none fits. */
export function matchRoute(routes: readonly HttpRoute[], method: string, pathname: string): RouteMatch | undefined {
  const wanted = method.toUpperCase();
  const parts = split(pathname);
  for (const route of routes) {
    if (route.method !== wanted) continue;
    const params = matchPath(split(route.path), parts);
    if (params) return { route, params };
  }
  return undefined;
}

const split = (path: string): string[] => path.split('/').filter((p) => p !== '');

function matchPath(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, p] of pattern.entries()) {
    const actual = parts[i]!;
    if (p.startsWith(':')) params[p.slice(1)] = decodeURIComponent(actual);
    else if (p !== actual) return undefined;
  }
  return params;
}

/** JSON when it parses, the text itself when it does not, `undefined` when empty. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
