import type { z } from 'zod';
import type { ModelUsage, Risk, Rng } from '../../core/index.js';
import type { ModelMistake } from '../fault.js';
import type { DeliveryContext } from '../../world/tool.js';
import type { HttpAnswer } from './HttpAnswer.js';

/**
 * Every method a route may take. got and ky retry HEAD, OPTIONS and TRACE by default, so a
 * faulted API must answer them too. Global `fetch` (undici) refuses TRACE before sending
 * (`TypeError: 'TRACE' HTTP method is unsupported.`, a forbidden method in the Fetch
 * standard): only node:http clients send it.
 */
export const HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One intercepted request, as both adapters hand it over: plain data, body already read. */
export interface HttpRequestData {
  readonly method: string;
  readonly url: string;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a route's `input` (and its error mapper) sees of the request. */
export interface RouteRequest {
  /** Upper-cased: `POST`. */
  readonly method: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /**
   * The body read by its `Content-Type` (`parseRequestBody`): JSON parsed, a form as a
   * nested object (`metadata[order]=1` → `{ metadata: { order: '1' } }`), any other type
   * as text; `undefined` when empty.
   */
  readonly body: unknown;
  /** The body as sent. */
  readonly text: string;
  /** Lower-cased names: `idempotency-key`, `stripe-version`. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * How an API renders a thrown business error. A part left out is the error's own: the
 * `status` of an `HttpError` (or of any error with an HTTP `status`), its headers (merged
 * under these), its body; a plain error's status is 500.
 */
export interface ErrorRendering {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON value, or a string sent as `text/plain`. */
  readonly body?: unknown;
}

/**
 * Renders an error a route's `input` or `serve` threw into the API's own error answer, or
 * `undefined` to leave it to the next mapper (the service's), then to the default (an
 * `HttpError` as its status, headers and JSON body; anything else a 500). It may also
 * return `reply(...)`. Errors a fault made (a `server_error`'s 500, even replayed for an
 * idempotency key) are answered as the fault says and never reach it.
 */
export type ErrorMapper = (error: unknown, req: RouteRequest) => ErrorRendering | HttpAnswer | undefined;

/** What a route's `serve` runs with: the world's time, the request ids, and the faults' demands (as a tool's delivery). */
export type ServeContext = DeliveryContext;

/**
 * One endpoint of a faulted HTTP service: which requests it takes, the operation name a fault
 * plan matches as `tool`, and the business logic behind it. `serve` returns the success
 * value (sent as JSON with `okStatus`) or an explicit answer made with `reply(status, body,
 * headers)`; it throws `HttpError` for business errors, as the in-process services do, or
 * any error that `error` renders in the API's own shape.
 *
 * @example
 * const createIntent: HttpRoute = {
 *   method: 'POST', path: '/v1/payment_intents', operation: 'create_payment_intent',
 *   input: (req) => req.body, // the form, parsed
 *   serve: (input) => (declined(input) ? reply(402, { error: { type: 'card_error', code: 'card_declined' } }) : intent(input)),
 * };
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
  /**
   * How a `model` route's answers report their token counts (R31): the model APIs register it
   * with their routes, so the interception records usage without knowing any model API's format.
   */
  readonly usage?: AnswerUsage;
  /** The status of a successful answer (default 200). */
  readonly okStatus?: number;
  /** The tool's risk (R4) and whether its service honours idempotency keys (R24), when the route knows: the wire's checkers read them. */
  readonly risk?: Risk;
  readonly honoursKeys?: boolean;
  /**
   * The schema of a successful answer's JSON body, where the route knows it (a tool's declared
   * `output`, answered as it is): a `wrong_value` or `empty` lie is drawn from it and stays valid under it.
   */
  readonly outputSchema?: z.ZodType;
  input(req: RouteRequest): unknown;
  /** A success value, or `reply(...)`: an answer in the API's own shape, any status. */
  serve(input: unknown, ctx: ServeContext): Promise<unknown> | unknown;
  /** This route's business errors in the API's own shape (tried before the service's). */
  readonly error?: ErrorMapper;
  /**
   * A `model` route's own mistake (`malformed_arguments`, `refusal`…, `truncated`): the answer
   * the model would have given (the stand-in's, a cassette's, the live provider's), made wrong the
   * way `fault` says, drawing from `draws`. A route without it answers as it would have.
   */
  mistake?(fault: ModelMistake, input: unknown, ctx: ServeContext, draws: MistakeDraws): Promise<MistakeAnswer>;
}

/** What a model mistake draws from: the trial's rng (a fork of its own) and the ids the world holds. */
export interface MistakeDraws {
  readonly rng: Rng;
  /** Every entity id in the world's state (`ord-1`, `cus-2`…), for a `wrong_target` to aim at another. */
  entities(): readonly string[];
}

/**
 * A model route's answer under its mistake: `answer` (a value or `reply(...)`, as `serve` returns),
 * with what the model said (`held`) and what the agent got instead (`answered`), recorded as a
 * `lie`; `none` when the answer gave the mistake nothing to work on (no tool call to break, no
 * previous answer to replay): it is answered as it was.
 */
export type MistakeAnswer =
  | { readonly kind: 'told'; readonly answer: unknown; readonly held: unknown; readonly answered: unknown }
  | { readonly kind: 'none' };

/** Reads the token counts an answer reports, from its body or from a stream's events. */
export interface AnswerUsage {
  of(body: string): ModelUsage | undefined;
  ofStream(events: readonly string[]): ModelUsage | undefined;
}

/** A route found for a request, with its path parameters. */
export interface RouteMatch {
  readonly route: HttpRoute;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * The route for `method` and `pathname`, trying routes in order; `undefined` when none fits.
 * A HEAD request no HEAD route takes goes to the GET route of the path, as HTTP servers do
 * (RFC 9110: HEAD is GET without the body); its answer then goes without a body.
 */
export function matchRoute(routes: readonly HttpRoute[], method: string, pathname: string): RouteMatch | undefined {
  const wanted = method.toUpperCase();
  const parts = split(pathname);
  const find = (m: string): RouteMatch | undefined => {
    for (const route of routes) {
      if (route.method !== m) continue;
      const params = matchPath(split(route.path), parts);
      if (params) return { route, params };
    }
    return undefined;
  };
  return find(wanted) ?? (wanted === 'HEAD' ? find('GET') : undefined);
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
