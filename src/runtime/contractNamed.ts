import type { ToolContract } from '../core/index.js';

/**
 * The contract of the tool named `name`, the last one of that name as a map built from `tools` would hold it. A
 * scan, not a map: an executor (one per agent of a crowd) makes a handful of calls over some fifteen tools, and
 * building the map cost more than all its lookups.
 */
export function contractNamed(tools: readonly ToolContract[], name: string): ToolContract | undefined {
  for (let i = tools.length - 1; i >= 0; i--) if (tools[i]!.name === name) return tools[i];
  return undefined;
}
