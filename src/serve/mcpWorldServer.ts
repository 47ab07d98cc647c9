import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ErrorData } from '../core/index.js';
import { errorDataOf } from '../faults/http/errorDataOf.js';
import type { HttpFaults } from '../faults/http/HttpFaults.js';
import type { HttpAnswer } from '../faults/http/HttpAnswer.js';
import { MCP_KEY_META, MCP_ORIGIN, type McpWorldTool } from './mcpWorldTools.js';

/** One trial's world as the MCP server reaches it. */
export interface McpWorld {
  readonly faults: HttpFaults;
  readonly tools: readonly McpWorldTool[];
  /** Aborts when the trial ends: a call still waiting for its answer then gets none. */
  readonly ended: AbortSignal;
}

/** The request that ends `mcp-serve`'s trial over the MCP connection itself: not a tool, so no model sees it. */
export const END_TRIAL_METHOD = 'faultline/end_trial';

export const EndTrialRequestSchema = z.object({
  method: z.literal(END_TRIAL_METHOD),
  params: z
    .looseObject({
      outcome: z.string().optional(),
      message: z.string().optional(),
      claims: z.array(z.unknown()).optional(),
    })
    .optional(),
});
export type EndTrialParams = NonNullable<z.infer<typeof EndTrialRequestSchema>['params']>;

export interface McpWorldServerOptions {
  /** The trial the calls go to now (`undefined`: between trials). */
  readonly world: () => McpWorld | undefined;
  /** Answers `faultline/end_trial` (stdio `mcp-serve` only). */
  readonly endTrial?: (params: EndTrialParams) => Promise<Record<string, unknown>>;
}

/** The server's name and version in `initialize`. */
const INFO = { name: 'faultline-world', version: '0.1.0' };

/**
 * An MCP server whose tools are a scenario's world under its fault plan. Each `tools/call`
 * becomes one request to the fault engine (`HttpFaults.exchange`), so the plan, the call
 * numbering and the history are those of every other transport; the engine's answer comes
 * back as the tool's result, or as a tool error (`isError: true`, R16) carrying what a
 * refusal said (`retryAfterMs`, `Retry-After` and other headers, the body). A lost answer (a
 * timeout, a partial write lost as one) is no answer: the client's own timeout decides, and its
 * `notifications/cancelled` is the engine's "client gave up".
 */
export function createMcpWorldServer(options: McpWorldServerOptions): Server {
  const server = new Server(INFO, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: (options.world()?.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: t.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const world = options.world();
    if (!world)
      return toolError({
        kind: 'unavailable',
        message: 'no trial is open: the served world is between trials',
        retryable: true,
      });
    const entry = world.tools.find((t) => t.name === request.params.name);
    if (!entry) {
      // Recorded as any request no route serves is, so the trial's timeline shows it.
      world.faults.refuseUnserved('POST', `${MCP_ORIGIN}/tools/${encodeURIComponent(request.params.name)}`);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}" (tools: ${world.tools.map((t) => t.name).join(', ')})`,
      );
    }
    const args = request.params.arguments ?? {};
    const key = keyOf(request.params._meta, entry.purpose === 'status' ? args : undefined);
    const body = entry.purpose === 'status' ? statusRef(args) : args;
    const signal = AbortSignal.any([extra.signal, world.ended]);
    const answer = await world.faults.exchange(
      {
        method: 'POST',
        url: entry.url,
        headers: { 'content-type': 'application/json', ...(key !== undefined && { 'idempotency-key': key }) },
        body: JSON.stringify(body),
      },
      signal,
    );
    if (!answer) {
      world.faults.refuseUnserved('POST', entry.url);
      return toolError({ kind: 'internal', message: `faultline: no route serves ${entry.url}`, retryable: false });
    }
    return resultOf(answer, world, signal);
  });
  if (options.endTrial) {
    const end = options.endTrial;
    server.setRequestHandler(EndTrialRequestSchema, (request) => end(request.params ?? {}));
  }
  return server;
}

/** The idempotency key of a call: `_meta.idempotencyKey` (or `idempotency-key`); a status query may name it in its input. */
function keyOf(
  meta: Record<string, unknown> | undefined,
  statusArgs: Record<string, unknown> | undefined,
): string | undefined {
  const given = meta?.[MCP_KEY_META] ?? meta?.['idempotency-key'] ?? statusArgs?.['idempotencyKey'];
  return typeof given === 'string' && given !== '' ? given : undefined;
}

/** A status query's `OperationRef` (R21), from what an MCP client can say about its call. */
function statusRef(args: Record<string, unknown>): Record<string, unknown> {
  const str = (k: string): string | undefined => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
  const idempotencyKey = str('idempotencyKey');
  const businessKey = str('businessKey');
  return {
    op: idempotencyKey ?? businessKey ?? 'mcp-status',
    input: typeof args['input'] === 'object' && args['input'] !== null ? args['input'] : {},
    ...(idempotencyKey !== undefined && { idempotencyKey }),
    ...(businessKey !== undefined && { businessKey }),
  };
}

async function resultOf(answer: HttpAnswer, world: McpWorld, signal: AbortSignal): Promise<CallToolResult> {
  const now = world.faults.clock.now();
  switch (answer.kind) {
    case 'respond': {
      const error = errorDataOf(answer, now);
      if (error) return toolError(error, answer);
      return { content: [{ type: 'text', text: answer.body }], ...structured(answer.body) };
    }
    case 'network':
      return toolError(errorDataOf(answer, now)!);
    case 'stream': {
      const parts: string[] = [];
      for (let part = await answer.body?.next(); part !== undefined; part = await answer.body?.next()) parts.push(part);
      return { content: [{ type: 'text', text: parts.join('') }] };
    }
    case 'hang':
      // No answer: the client's timeout (its cancel) or the trial's end settles the wait, and the engine records it lost.
      await new Promise<void>((resolve) =>
        signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      return toolError({
        kind: 'timeout',
        message: `no answer (${answer.reason}); the tool may have run`,
        retryable: true,
      });
  }
}

/** A JSON object body as `structuredContent` too, for clients that read it. */
function structured(body: string): { structuredContent?: Record<string, unknown> } {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? { structuredContent: parsed as Record<string, unknown> }
      : {};
  } catch {
    return {};
  }
}

/** Headers a refusal carries that say something to a client (not the framing ones). */
function meaningfulHeaders(answer: HttpAnswer | undefined): Record<string, string> | undefined {
  if (answer?.kind !== 'respond') return undefined;
  const kept = Object.entries(answer.headers).filter(([name]) => name !== 'content-type' && name !== 'content-length');
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/** R16: a failure as MCP's tool error, which the client hands to the model as the tool's answer. */
function toolError(error: ErrorData, answer?: HttpAnswer): CallToolResult {
  const headers = meaningfulHeaders(answer);
  let body: unknown;
  if (answer?.kind === 'respond' && answer.body !== '') {
    try {
      body = JSON.parse(answer.body);
    } catch {
      body = answer.body;
    }
  }
  const text = JSON.stringify({
    error: {
      kind: error.kind,
      ...(error.status !== undefined && { status: error.status }),
      message: error.message,
      retryable: error.retryable,
      ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
      ...(error.code !== undefined && { code: error.code }),
      ...(headers && { headers }),
      ...(body !== undefined && { body }),
    },
  });
  return { content: [{ type: 'text', text }], isError: true };
}
