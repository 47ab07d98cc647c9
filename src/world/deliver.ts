import {
  FaultlineError,
  FaultlineErrorCode,
  HttpError,
  type OperationRef,
  type OperationStatus,
} from '../core/index.js';
import type { ToolContext, ToolSpec } from './tool.js';
import type { World } from './World.js';

/** The ids a delivery carries: the wire's request id and, if sent, the idempotency key. */
export interface DeliveryIds {
  readonly request: string;
  readonly idempotencyKey?: string | undefined;
}

/** The context one delivery runs in. */
export function toolContext(world: World, ids: DeliveryIds): ToolContext {
  return {
    world,
    clock: world.clock,
    request: ids.request,
    ...(ids.idempotencyKey === undefined ? {} : { idempotencyKey: ids.idempotencyKey }),
  };
}

/** @throws FaultlineError `FAULTLINE_UNKNOWN_TOOL` when no service of the world has it. */
export function findTool(world: World, name: string): ToolSpec {
  const tool = world.tools.find((t) => t.name === name);
  if (!tool) throw new FaultlineError(FaultlineErrorCode.UnknownTool, `no tool named "${name}" in this world`);
  return tool;
}

/**
 * One fault-free delivery, as the wire makes it: parse the input with the tool's schema,
 * then run it. Rejects with what the tool throws (a `ZodError`, an `HttpError`).
 */
export async function deliver(world: World, tool: string, input: unknown, ids: DeliveryIds): Promise<unknown> {
  const spec = findTool(world, tool);
  return spec.run(spec.input.parse(input), toolContext(world, ids));
}

/**
 * One fault-free status query (R21). A tool without `status` refuses with 405 rather than
 * answering `not_found`, which would read as "maybe it never arrived".
 */
export async function queryStatus(
  world: World,
  tool: string,
  ref: OperationRef,
  ids: DeliveryIds,
): Promise<OperationStatus> {
  const spec = findTool(world, tool);
  if (!spec.status) throw new HttpError(405, `tool "${tool}" does not answer status queries`);
  return spec.status(ref, toolContext(world, ids));
}
