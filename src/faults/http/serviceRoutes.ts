import { isHttpError, type OperationRef } from '../../core/index.js';
import type { ServiceDefinition } from '../../world/define/defineService.js';
import { ServiceError } from '../../world/define/ServiceError.js';
import type { ServiceRoute, ServiceRouteRequest } from '../../world/define/ServiceHttp.js';
import { findTool } from '../../world/deliver.js';
import type { ToolSpec } from '../../world/tool.js';
import type { World } from '../../world/World.js';
import type { HttpService } from './HttpFaults.js';
import type { HttpRoute, RouteRequest } from './HttpRoute.js';
import { mergedInput } from './mergedInput.js';
import { answerSchemaOf, contractOf, serveStatus, serveTool } from './toolRoutes.js';

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
    if (!http)
      return {
        name: definition.name,
        baseUrl: defaultServiceUrl(definition.name),
        routes: rpcRoutes(world, definition),
      };
    const render = http.error;
    return {
      name: definition.name,
      baseUrl: http.baseUrl,
      routes: http.routes.map((route) => declaredRoute(world, route)),
      // Business errors in the API's own shape; anything else (a fault's 5xx, a crash) is left as it is.
      ...(render && { error: (error: unknown) => (isServiceError(error) ? render(error) : undefined) }),
    };
  });
}

/** Every tool of `definition` as `POST /tools/{tool}` (and `/tools/{tool}/status` where it answers status queries). */
export function rpcRoutes(world: World, definition: Pick<ServiceDefinition, 'tools'>): HttpRoute[] {
  return definition.tools.flatMap((summary): HttpRoute[] => {
    const tool = findTool(world, summary.name);
    const call: HttpRoute = {
      method: 'POST',
      path: `/tools/${tool.name}`,
      operation: tool.name,
      ...contractOf(tool),
      ...answerSchemaOf(tool),
      input: (req) => req.body ?? {},
      serve: (input, ctx) => serveTool(world, tool, input, ctx),
    };
    if (!tool.canQueryStatus) return [call];
    return [
      call,
      {
        method: 'POST',
        path: `/tools/${tool.name}/status`,
        operation: tool.name,
        purpose: 'status',
        ...contractOf(tool),
        input: (req) => req.body ?? {},
        serve: (input, ctx) => serveStatus(world, tool, input as OperationRef, ctx),
      },
    ];
  });
}

function declaredRoute(world: World, route: ServiceRoute): HttpRoute {
  const tool = findTool(world, route.tool);
  const purpose = route.purpose ?? 'call';
  return {
    method: route.method,
    path: route.path,
    operation: route.tool,
    purpose,
    ...contractOf(tool),
    // A route that reshapes the result (`output`) answers something the tool's schema does not describe.
    ...(purpose === 'call' && !route.output && answerSchemaOf(tool)),
    ...(route.status === undefined ? {} : { okStatus: route.status }),
    input: (req) => {
      if (route.input) return route.input(viewOf(req));
      return purpose === 'status' ? statusRefOf(tool, req) : mergedInput(req);
    },
    serve: async (input, ctx) => {
      const value =
        purpose === 'status'
          ? await serveStatus(world, tool, input as OperationRef, ctx)
          : await serveTool(world, tool, input, ctx);
      return route.output ? route.output(value) : value;
    },
  };
}

const viewOf = (req: RouteRequest): ServiceRouteRequest => ({
  params: req.params,
  query: req.query,
  body: req.body,
  headers: req.headers,
});

/** A status route's default: the operation named by the `Idempotency-Key` header and the tool's business key field (R21). */
function statusRefOf(tool: ToolSpec, req: RouteRequest): OperationRef {
  const fields = mergedInput(req);
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

// A service module may import its own copy of faultline: match by brand and name, not only by class.
const isServiceError = (error: unknown): error is ServiceError =>
  error instanceof ServiceError || (isHttpError(error) && error.name === 'ServiceError');
