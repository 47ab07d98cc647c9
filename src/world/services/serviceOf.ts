import type { ToolContext } from '../tool.js';

/** The world's service named `name`, if it is a `kind`: services that work alone look their peers up this way. */
export function serviceOf<S>(
  ctx: ToolContext,
  name: string,
  kind: abstract new (...args: never[]) => S,
): S | undefined {
  const service = ctx.world.services.find((s) => s.name === name);
  return service instanceof kind ? service : undefined;
}
