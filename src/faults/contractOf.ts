import type { ToolContract } from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';
import type { ToolSpec } from '../world/tool.js';

/** The caller's view of a tool: its contract, never its business logic. */
// One literal and a key set in place, not a conditional spread: the spread built a temporary object and copied it,
// per tool per trial. The business key field last, where the spread put it.
export function contractOf(t: ToolSpec): ToolContract {
  const contract: Mutable<ToolContract> = {
    name: t.name,
    description: t.description,
    risk: t.risk,
    input: t.input,
    honoursIdempotencyKeys: t.honoursIdempotencyKeys,
    canQueryStatus: t.canQueryStatus,
  };
  if (t.businessKeyField !== undefined) contract.businessKeyField = t.businessKeyField;
  return contract;
}
