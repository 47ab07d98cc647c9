import { HttpError, isHttpError, stackless, type OperationRef, type WireRequest } from '../core/index.js';
import { jsonRoundTrip } from '../core/jsonRoundTrip.js';
import type { ToolContext, ToolSpec } from '../world/tool.js';

/**
 * The service's own work for `req`: a status query answered by the tool's `status`, else the tool run on its
 * validated input. The tool's promise itself, not one wrapped around it, so the caller's await settles where it did.
 */
export function serveRequest(tool: ToolSpec, req: WireRequest, ctx: ToolContext): Promise<unknown> {
  return req.purpose === 'status' ? queryStatus(tool, req.input as OperationRef, ctx) : runTool(tool, req.input, ctx);
}

/**
 * Not `async`: the tool's own promise is handed on, so the delivery's await takes one hop where an async wrapper
 * resolved with it took three (per delivery, in every trial). A throw, the refused input's 400 included, still
 * arrives as a rejection.
 */
function runTool(tool: ToolSpec, input: unknown, ctx: ToolContext): Promise<unknown> {
  try {
    const parsed = tool.input.safeParse(input);
    if (!parsed.success) return Promise.reject(invalidRequest(parsed.error.issues));
    const out = tool.run(parsed.data, ctx);
    return out instanceof Promise ? out : Promise.resolve(out);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

function invalidRequest(
  zodIssues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[],
): Error {
  const issues = zodIssues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const detail = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return stackless(
    () => new HttpError(400, `Invalid request: ${detail}`, { error: { type: 'invalid_request_error', issues } }),
  );
}

async function queryStatus(tool: ToolSpec, ref: OperationRef, ctx: ToolContext): Promise<unknown> {
  if (!tool.status) {
    const message = `Tool "${tool.name}" does not answer status queries`;
    throw stackless(() => new HttpError(501, message, { error: { type: 'not_implemented_error', message } }));
  }
  return tool.status(ref, ctx);
}

/** A service that throws anything but an HttpError crashed: its client sees a 500, as over HTTP. */
export function asServerError(error: unknown): Error {
  if (isHttpError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  // The crash's own stack is the one worth reading, and it is not this one.
  return stackless(() => new HttpError(500, 'Internal Server Error', { error: { type: 'server_error', message } }));
}

/** Answers cross the wire as JSON, so the caller can never hold (or mutate) live service state. */
export function overTheWire(value: unknown): unknown {
  return jsonRoundTrip(value);
}
