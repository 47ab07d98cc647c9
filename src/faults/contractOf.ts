import type { ToolContract } from '../core/index.js';
import type { ToolSpec } from '../world/tool.js';

/** The caller's view of a tool: its contract, never its business logic. */
// One literal per shape, not a conditional spread: the spread built a temporary object and copied it, per tool per trial.
export function contractOf(t: ToolSpec): ToolContract {
  if (t.businessKeyField === undefined) {
    return {
      name: t.name,
      description: t.description,
      risk: t.risk,
      input: t.input,
      honoursIdempotencyKeys: t.honoursIdempotencyKeys,
      canQueryStatus: t.canQueryStatus,
    };
  }
  return {
    name: t.name,
    description: t.description,
    risk: t.risk,
    input: t.input,
    honoursIdempotencyKeys: t.honoursIdempotencyKeys,
    canQueryStatus: t.canQueryStatus,
    businessKeyField: t.businessKeyField,
  };
}
