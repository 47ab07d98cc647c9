import type { z } from 'zod';
import type { Risk } from '../../core/index.js';
import type { ToolSpec } from '../tool.js';

/**
 * A tool spec with exactly the optional fields that are given, in the order a service's specs
 * have always had: name, description, risk, input, output?, honoursIdempotencyKeys,
 * canQueryStatus, businessKeyField?, run, status?. One object literal per combination rather
 * than conditional spreads: V8 copies a spread inside a literal at run time, and that was more
 * than half of building a world (4 of 7 µs for the five built-in services). Built field by
 * field instead, the specs were slower still (V8 pretenured them).
 */
export function toolSpecOf(
  name: string,
  description: string,
  risk: Risk,
  input: z.ZodType,
  output: z.ZodType | undefined,
  honoursIdempotencyKeys: boolean,
  canQueryStatus: boolean,
  businessKeyField: string | undefined,
  run: ToolSpec['run'],
  status: ToolSpec['status'],
): ToolSpec {
  if (output === undefined) {
    if (businessKeyField === undefined) {
      return status === undefined
        ? { name, description, risk, input, honoursIdempotencyKeys, canQueryStatus, run }
        : { name, description, risk, input, honoursIdempotencyKeys, canQueryStatus, run, status };
    }
    return status === undefined
      ? { name, description, risk, input, honoursIdempotencyKeys, canQueryStatus, businessKeyField, run }
      : { name, description, risk, input, honoursIdempotencyKeys, canQueryStatus, businessKeyField, run, status };
  }
  if (businessKeyField === undefined) {
    return status === undefined
      ? { name, description, risk, input, output, honoursIdempotencyKeys, canQueryStatus, run }
      : { name, description, risk, input, output, honoursIdempotencyKeys, canQueryStatus, run, status };
  }
  return status === undefined
    ? { name, description, risk, input, output, honoursIdempotencyKeys, canQueryStatus, businessKeyField, run }
    : { name, description, risk, input, output, honoursIdempotencyKeys, canQueryStatus, businessKeyField, run, status };
}
