import { HttpError, isHttpError, type OperationRef } from '../../core/index.js';
import type { ServiceDefinition } from '../../world/define/defineService.js';
import { ServiceError } from '../../world/define/ServiceError.js';
import type { ServiceHttp, ServiceRoute, ServiceRouteRequest } from '../../world/define/ServiceHttp.js';
import { findTool } from '../../world/deliver.js';
import type { ToolSpec } from '../../world/tool.js';
import type { World } from '../../world/World.js';
import type { HttpService } from './HttpFaults.js';
import type { HttpMethod, HttpRoute, RouteRequest } from './HttpRoute.js';
import { serveStatus, serveTool } from './toolRoutes.js';

/** Where a service without routes of its own is served: every tool as `POST /tools/{name}`. */
export const defaultServiceUrl = (service: string): string => `https://${service}.faultline.test`;

/**
 * The world's services over HTTP: each in the API shape its definition declares (`http`), or,
 * for one that declares none, as RPC endpoints (`POST /tools/{tool}`, `POST /tools/{tool}/status`)
 * at `https://{name}.faultline.test`. A fault plan names a route by its tool, as in process.
 */
export function serviceHttp(world: World, definitions: readonly ServiceDefinition[]): HttpService[] {
  return definitions.map((definition) => {
    const http = definition.http;
    if (!http) return { baseUrl: defaultServiceUrl(definition.name), routes: rpcRoutes(world, definition) };
    return { baseUrl: http.baseUrl, routes: http.routes.map((route) => declaredRoute(world, http, route)) };
  });
}

function rpcRoutes(world: World, definition: ServiceDefinition): HttpRoute[] {
  return definition.tools.flatMap((summary): HttpRoute[] => {
    const tool = findTool(world, summary.name);
    const call: HttpRoute = { method: 'POST', path: `/tools/${tool.name}`, operation: tool.name, input: (req) => req.body ?? {}, serve: (input, ctx) => serveTool(world, tool, input, ctx) };
    if (!tool.canQueryStatus) return [call];
    return [call, { method: 'POST', path: `/tools/${tool.name}/status`, operation: tool.name, purpose: 'status', input: (req) => req.body ?? {}, serve: (input, ctx) => serveStatus(world, tool, input as OperationRef, ctx) }];
  });
}

function declaredRoute(world: World, http: ServiceHttp, route: ServiceRoute): HttpRoute {
  const tool = findTool(world, route.tool);
  const purpose = route.purpose ?? 'call';
  return {
    method: route.method as HttpMethod,
    path: route.path,
    operation: route.tool,
    purpose,
    ...(route.status === undefined ? {} : { okStatus: route.status }),
    input: (req) => {
      const view = viewOf(req);
      if (route.input) return route.input(view);
      return purpose === 'status' ? statusRefOf(tool, view) : mergedInput(view);
    },
    serve: async (input, ctx) => {
      try {
        const value = purpose === 'status' ? await serveStatus(world, tool, input as OperationRef, ctx) : await serveTool(world, tool, input, ctx);
        return route.output ? route.output(value) : value;
      } catch (error) {
        throw rendered(http, error);
      }
    },
  };
}

const viewOf = (req: RouteRequest): ServiceRouteRequest => ({ params: req.params, query: req.query, body: req.body, headers: req.headers });

/** The default tool input: query parameters, then path parameters, then the body's fields, later ones winning. */
function mergedInput(req: ServiceRouteRequest): unknown {
  const body = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? req.body : undefined;
  if (req.body !== undefined && body === undefined) return req.body;
  return { ...Object.fromEntries(req.query), ...req.params, ...body };
}

/** A status route's default: the operation named by the `Idempotency-Key` header and the tool's business key field (R21). */
function statusRefOf(tool: ToolSpec, req: ServiceRouteRequest): OperationRef {
  const fields = mergedInput(req) as Record<string, unknown>;
  const key = req.headers['idempotency-key'];
  const field = tool.businessKeyField;
  const business = field === undefined ? undefined : fields[field];
  const businessKey = typeof business === 'string' ? business : undefined;
  return {
    op: key ?? businessKey ?? '',
    input: fields,
    ...(key === undefined ? {} : { idempotencyKey: key }),
    ...(businessKey === undefined ? {} : { businessKey }),
  };
}

/** A business error in the API's own shape, when the service renders it; anything else as it was. */
function rendered(http: ServiceHttp, error: unknown): unknown {
  if (!http.error || !isServiceError(error)) return error;
  const shaped = http.error(error);
  return new HttpError(shaped.status ?? error.status, error.message, shaped.body, { ...error.headers, ...shaped.headers });
}

// A service module may import its own copy of faultline: match by brand and name, not only by class.
const isServiceError = (error: unknown): error is ServiceError => error instanceof ServiceError || (isHttpError(error) && error.name === 'ServiceError');
