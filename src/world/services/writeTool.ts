import type { z } from 'zod';
import type { OperationRef, OperationStatus } from '../../core/index.js';
import type { ToolContext, ToolSpec } from '../tool.js';
import { businessKeyOf } from './operationStatus.js';

/** The write a delivery makes, named as its tool definition names it. */
export interface WriteOp {
  readonly tool: string;
  /** The input's business-key field value, if the tool has one. */
  readonly businessKey: string | undefined;
}

/**
 * A backend's half of a write tool: how it stores the write and answers a status query.
 * The shared tool definition supplies the name and business key, so both backends agree on them.
 */
export interface WriteTool<I, O> {
  run(input: I, ctx: ToolContext, op: WriteOp): Promise<O>;
  status(ref: OperationRef, businessKeyField: string | undefined): OperationStatus | Promise<OperationStatus>;
}

/** What defines a write tool on both backends. */
export interface WriteToolDefinition<I> {
  readonly name: string;
  readonly description: string;
  readonly risk: ToolSpec['risk'];
  readonly input: z.ZodType<I>;
  readonly canQueryStatus: boolean;
  /** Omitted for writes with no business id of their own. */
  readonly businessKeyField?: string;
}

/** A write tool's spec: its definition, wired to a backend's run and status under the definition's name and business key. */
export function writeToolSpec<I, O>(
  definition: WriteToolDefinition<I>,
  honoursIdempotencyKeys: boolean,
  backend: WriteTool<I, O>,
): ToolSpec<I, O> {
  const { name, description, risk, input, canQueryStatus, businessKeyField } = definition;
  return {
    name,
    description,
    risk,
    input,
    honoursIdempotencyKeys,
    canQueryStatus,
    ...(businessKeyField === undefined ? {} : { businessKeyField }),
    run: (value, ctx) => backend.run(value, ctx, { tool: name, businessKey: businessKeyOf(value, businessKeyField) }),
    // A tool that cannot be queried answers no status query at all (405), on every backend alike.
    ...(canQueryStatus && { status: (ref: OperationRef) => backend.status(ref, businessKeyField) }),
  };
}
