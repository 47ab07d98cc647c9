import type { ServiceError } from './ServiceError.js';

/** The methods a service route may answer. */
export const SERVICE_HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'] as const;
export type ServiceHttpMethod = (typeof SERVICE_HTTP_METHODS)[number];

/** What a route's `input` mapper sees of one request. */
export interface ServiceRouteRequest {
  /** `:name` segments of the route's path. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** JSON and form bodies parsed to objects, text as a string, `undefined` when empty. */
  readonly body: unknown;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
}

/** One endpoint: which requests it takes and which tool answers them. */
export interface ServiceRoute {
  readonly method: ServiceHttpMethod;
  /** `/v1/tickets/:ticketId`: `:name` segments become `params`. */
  readonly path: string;
  /** The service's tool behind the route; a fault plan's `match.tool` names it. */
  readonly tool: string;
  /** `status`: the route answers the tool's status query (R21), matched by `purpose: status` rules. */
  readonly purpose?: 'call' | 'status';
  /** The status of a successful answer (default 200). */
  readonly status?: number;
  /** The tool input (default: query parameters, the body's fields over them, path parameters over both). */
  input?(req: ServiceRouteRequest): unknown;
  /** The success body (default: the tool's result). */
  output?(result: unknown): unknown;
}

/** A business error as the API puts it on the wire. */
export interface ServiceHttpError {
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Default: the error's own status. */
  readonly status?: number;
}

/** A service over HTTP, in the API's own shape. */
export interface ServiceHttp {
  /** `https://helpdesk.test` (a path, as in `https://host/v1`, prefixes every route). */
  readonly baseUrl: string;
  readonly routes: readonly ServiceRoute[];
  /** Renders a thrown `ServiceError` in the API's own error shape (default: `{ error: { type, code, message, … } }`). */
  error?(error: ServiceError): ServiceHttpError;
}
