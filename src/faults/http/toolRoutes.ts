import { FaultlineError, FaultlineErrorCode, HttpError, type OperationRef } from '../../core/index.js';
import type { ToolContext, ToolSpec } from '../../world/tool.js';
import type { World } from '../../world/World.js';
import type { HttpRoute, RouteRequest, ServeContext } from './HttpRoute.js';

/** The context a world tool runs in for one HTTP delivery. */
function toolContext(world: World, ctx: ServeContext): ToolContext {
  return {
    world,
    clock: ctx.clock,
    request: ctx.request,
    ...(ctx.idempotencyKey === undefined ? {} : { idempotencyKey: ctx.idempotencyKey }),
    ...(ctx.failure === undefined ? {} : { failure: ctx.failure }),
    ...(ctx.travel === undefined ? {} : { travel: ctx.travel }),
    ...(ctx.asOf === undefined ? {} : { asOf: ctx.asOf }),
  };
}

/** Runs a tool as the in-process wire does: a body the schema refuses is a 400 naming each field. */
export async function serveTool(world: World, tool: ToolSpec, input: unknown, ctx: ServeContext): Promise<unknown> {
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    const detail = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    throw new HttpError(400, `Invalid request: ${detail}`, { error: { type: 'invalid_request_error', issues } });
  }
  return tool.run(parsed.data, toolContext(world, ctx));
}

/** Answers a status query (R21) as the in-process wire does; a tool without one refuses with 501. */
export async function serveStatus(
  world: World,
  tool: ToolSpec,
  ref: OperationRef,
  ctx: ServeContext,
): Promise<unknown> {
  if (!tool.status) {
    const message = `Tool "${tool.name}" does not answer status queries`;
    throw new HttpError(501, message, { error: { type: 'not_implemented_error', message } });
  }
  return tool.status(ref, toolContext(world, ctx));
}

function findTool(world: World, name: string): ToolSpec {
  const tool = world.tools.find((t) => t.name === name);
  if (!tool) throw new FaultlineError(FaultlineErrorCode.UnknownTool, `no tool named "${name}" in this world`);
  return tool;
}

const bodyOf = (req: RouteRequest): unknown => req.body ?? {};

/** What the wire's checkers read of a tool's contract: its risk (R4) and whether its service honours keys (R24). */
export const contractOf = (tool: ToolSpec): Pick<HttpRoute, 'risk' | 'honoursKeys'> => ({
  risk: tool.risk,
  honoursKeys: tool.honoursIdempotencyKeys,
});

/**
 * A call route that answers the tool's result as it is: its body is what the tool's declared output schema describes
 * (a status route's is not).
 */
export const answerSchemaOf = (tool: ToolSpec): Pick<HttpRoute, 'outputSchema'> =>
  tool.output ? { outputSchema: tool.output } : {};

/**
 * Every tool of `world` as an RPC endpoint: `POST {prefix}/{tool}` with the input as the JSON
 * body, and `POST {prefix}/{tool}/status` with an `OperationRef` for tools that answer status
 * queries. The `Idempotency-Key` header is the key the service sees.
 */
export function toolRoutes(world: World, options: { readonly prefix?: string } = {}): HttpRoute[] {
  const prefix = options.prefix ?? '/tools';
  return world.tools.flatMap((tool): HttpRoute[] => {
    const call: HttpRoute = {
      method: 'POST',
      path: `${prefix}/${tool.name}`,
      operation: tool.name,
      ...contractOf(tool),
      ...answerSchemaOf(tool),
      input: bodyOf,
      serve: (input, ctx) => serveTool(world, tool, input, ctx),
    };
    if (!tool.canQueryStatus) return [call];
    const status: HttpRoute = {
      method: 'POST',
      path: `${prefix}/${tool.name}/status`,
      operation: tool.name,
      purpose: 'status',
      ...contractOf(tool),
      input: bodyOf,
      serve: (input, ctx) => serveStatus(world, tool, input as OperationRef, ctx),
    };
    return [call, status];
  });
}

/**
 * The orders service as a REST API, the shape most tools call:
 * `POST /orders` (create_order, 201; the `Idempotency-Key` header is the key),
 * `GET /orders/:orderId` (get_order), `GET /orders?clientReference=` (find_order_by_reference),
 * `POST /orders/:orderId/cancel` (cancel_order), and
 * `GET /orders/status?clientReference=` (create_order's status query, R21).
 */
export function ordersRoutes(world: World, options: { readonly prefix?: string } = {}): HttpRoute[] {
  const base = options.prefix ?? '/orders';
  const tool = (name: string): ToolSpec => findTool(world, name);
  return [
    {
      method: 'GET',
      path: `${base}/status`,
      operation: 'create_order',
      purpose: 'status',
      ...contractOf(tool('create_order')),
      input: (req) => {
        const clientReference = req.query.get('clientReference') ?? undefined;
        const key = req.headers['idempotency-key'];
        return {
          op: key ?? clientReference ?? '',
          input: clientReference === undefined ? {} : { clientReference },
          ...(key === undefined ? {} : { idempotencyKey: key }),
          ...(clientReference === undefined ? {} : { businessKey: clientReference }),
        } satisfies OperationRef;
      },
      serve: (input, ctx) => serveStatus(world, tool('create_order'), input as OperationRef, ctx),
    },
    {
      method: 'POST',
      path: base,
      operation: 'create_order',
      ...contractOf(tool('create_order')),
      ...answerSchemaOf(tool('create_order')),
      okStatus: 201,
      input: bodyOf,
      serve: (input, ctx) => serveTool(world, tool('create_order'), input, ctx),
    },
    {
      method: 'GET',
      path: base,
      operation: 'find_order_by_reference',
      ...contractOf(tool('find_order_by_reference')),
      ...answerSchemaOf(tool('find_order_by_reference')),
      input: (req) => ({ clientReference: req.query.get('clientReference') ?? '' }),
      serve: (input, ctx) => serveTool(world, tool('find_order_by_reference'), input, ctx),
    },
    {
      method: 'GET',
      path: `${base}/:orderId`,
      operation: 'get_order',
      ...contractOf(tool('get_order')),
      ...answerSchemaOf(tool('get_order')),
      input: (req) => ({ orderId: req.params['orderId'] }),
      serve: (input, ctx) => serveTool(world, tool('get_order'), input, ctx),
    },
    {
      method: 'POST',
      path: `${base}/:orderId/cancel`,
      operation: 'cancel_order',
      ...contractOf(tool('cancel_order')),
      ...answerSchemaOf(tool('cancel_order')),
      input: (req) => ({ orderId: req.params['orderId'] }),
      serve: (input, ctx) => serveTool(world, tool('cancel_order'), input, ctx),
    },
  ];
}
